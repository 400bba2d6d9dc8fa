//===- ConstsBin.cpp - consts.bin: the constants in device layout --------===//
#include "BundleParts.h"
#include "CodegenUtils.h"

#include "tx8/Codegen/DeviceImage.h"
#include "tx8/Dialect/Tx8be/IR/ColumnBlocks.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Transforms/ConstContainer.h"

#include <cstring>

using namespace mlir;
using namespace tx8be;
using namespace tx8::codegen;

LogicalResult tx8::codegen::buildConsts(ModuleOp module, std::string &blob, std::vector<ConstEntry> &entries) {
  ConstContainer container(module);
  auto addrs = module->getAttrOfType<DenseI64ArrayAttr>("tx8be.const_addrs");
  auto total = module->getAttrOfType<IntegerAttr>("tx8be.const_bytes");
  if (container.size() && (!addrs || addrs.size() != static_cast<int64_t>(container.size()) || !total))
    return module.emitError() << "constants have no DDR addresses; run tx8be-ddr-alloc first";
  blob.assign(total ? total.getValue().getZExtValue() : 0, '\0');
  tx8_hw_config hw = getHwConfig(module);
  // Each entry's layout is the one its LoadConsts read it in (ConstNormPass makes them agree).
  DenseMap<uint32_t, LoadConstOp> reader;
  module.walk([&](LoadConstOp load) { reader.try_emplace(load.getConstMapId(), load); });
  for (uint32_t id = 0; id < container.size(); ++id) {
    ElementsAttr value = container.get(id);
    auto type = cast<ShapedType>(value.getType());
    ConstEntry e;
    e.id = id;
    e.elementType = type.getElementType();
    e.shape.assign(type.getShape().begin(), type.getShape().end());
    e.layout.order.clear();
    for (int64_t d = 0; d < type.getRank(); ++d)
      e.layout.order.push_back(d);
    e.layout.mode = defaultCompactLayout(type);
    if (auto load = reader.lookup(id)) {
      e.layout = getDeviceLayout(load.getOutput());
      e.name = locName(load.getLoc());
    }
    e.layoutStr = e.layout.isIdentityOrder() ? "Tensor" : (reader.lookup(id) ? getLayoutStr(reader.lookup(id)) : "");
    e.offset = static_cast<uint64_t>(addrs[id]);
    ImageDesc desc;
    desc.shape.assign(e.shape.begin(), e.shape.end());
    desc.order.assign(e.layout.order.begin(), e.layout.order.end());
    desc.mode = static_cast<LAYOUT_MODE>(e.layout.mode);
    desc.format = tx8be::detail::dataFormatOf(e.elementType);
    desc.batchAlignBytes = tx8_hw_batch_align_bytes(&hw);
    tx8::ref::Tensor host;
    std::string error;
    auto splat = dyn_cast<DenseElementsAttr>(value);
    if (splat && splat.isSplat() && type.getNumElements() > 1) {
      // One value for every element (a large ConstantOfShape): its bytes once, as the reference reads them.
      if (failed(tensorFromElementsAttr(splat.resizeSplat(RankedTensorType::get({1}, e.elementType)), host, error)))
        return module.emitError() << "constant " << id << " (" << e.name << "): " << error;
      desc.elementBytes = static_cast<unsigned>(host.bytes.size());
      std::optional<uint64_t> bytes = imageBytes(desc);
      // An image without padding is the value repeated, whatever the order: filled in place, without a tensor or
      // an image of its size (a 25088 x 4096 weight is 411 MB once, not three times).
      if (bytes && *bytes == static_cast<uint64_t>(type.getNumElements()) * desc.elementBytes) {
        e.bytes = *bytes;
        if (e.offset > blob.size() || e.bytes > blob.size() - e.offset)
          return module.emitError() << "constant " << id << " does not fit its DDR range";
        char *at = blob.data() + e.offset;
        for (uint64_t k = 0; k < e.bytes; k += desc.elementBytes)
          std::memcpy(at + k, host.bytes.data(), desc.elementBytes);
        e.checksum = checksum(StringRef(at, e.bytes));
        entries.push_back(std::move(e));
        continue;
      }
    }
    if (failed(tensorFromElementsAttr(value, host, error)))
      return module.emitError() << "constant " << id << " (" << e.name << "): " << error;
    desc.elementBytes = static_cast<unsigned>(host.bytes.size() / std::max<uint64_t>(1, type.getNumElements()));
    if (std::optional<int64_t> w = reader.lookup(id) ? reader.lookup(id).getColumnBlock() : std::nullopt) {
      // Stored block by block (tx8be-block-weights): the same bytes, each block of w columns contiguous.
      if (!e.layout.isIdentityOrder() || type.getRank() < 2 || type.getShape().back() % *w != 0)
        return module.emitError() << "constant " << id << " (" << e.name << "): column blocks of " << *w
                                  << " need an identity-order tensor whose last dim they divide";
      std::vector<uint8_t> blocked(host.bytes.size());
      uint64_t n = static_cast<uint64_t>(type.getShape().back());
      columnBlockBytes(host.bytes.data(), blocked.data(), static_cast<uint64_t>(type.getNumElements()) / n, n,
                       static_cast<uint64_t>(*w), desc.elementBytes);
      host.bytes = std::move(blocked);
      SmallVector<int64_t, 6> shape = columnBlockedShape(type.getShape(), *w);
      desc.shape.assign(shape.begin(), shape.end());
      desc.order.clear();
      for (size_t d = 0; d < shape.size(); ++d)
        desc.order.push_back(static_cast<int64_t>(d));
      e.layoutStr = "column blocks of " + std::to_string(*w);
    }
    std::vector<uint8_t> image;
    if (!packImage(desc, host.bytes, image, error))
      return module.emitError() << "constant " << id << " (" << e.name << "): " << error;
    e.bytes = image.size();
    if (e.offset > blob.size() || e.bytes > blob.size() - e.offset)
      return module.emitError() << "constant " << id << " does not fit its DDR range";
    std::copy(image.begin(), image.end(), blob.begin() + static_cast<int64_t>(e.offset));
    e.checksum = checksum(StringRef(reinterpret_cast<const char *>(image.data()), image.size()));
    entries.push_back(std::move(e));
  }
  return success();
}
