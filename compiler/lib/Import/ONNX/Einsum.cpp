//===- Einsum.cpp - ONNX Einsum as Transpose / Reshape / MatMul / ReduceSum -===//
//
// Einsum has no tx8be op: the equation is parsed at import and lowered to the ops numpy's einsum amounts to.
// Each dim of each operand gets a label (its letter; the dims an ellipsis stands for get labels of their own,
// aligned from the right as numpy broadcasts them). Per operand, a letter repeated in its term takes the
// diagonal: a Mul by a 0/1 mask that is 1 where those dims' indices agree, and the later copies become labels
// of their own that are summed away. A dim of extent 1 whose label has a larger extent elsewhere (numpy
// broadcasting) is reshaped away. Then the operands are folded left: two at a time, each label is
//   batch       in both and still needed (by the output or a later operand),
//   contracted  in both and not needed,
//   kept        in one and needed,
//   summed      in one and not needed (a ReduceSum before the product);
// the left operand is transposed to [batch, kept-left, contracted], the right to [batch, contracted,
// kept-right], both reshaped to 3-D (2-D without batch) and multiplied (MatMul; a broadcasting Mul when nothing
// is contracted), the result reshaped back to [batch, kept-left, kept-right]. Last, the labels not in the output
// are summed and the rest transposed to the output's order. Implicit mode (no "->") outputs the ellipsis dims,
// then the letters that appear once, in ASCII order (numpy's rule). Any equation that does not parse, or does
// not fit the operands' ranks and extents, is refused with one line saying why.
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <set>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

namespace {

/// A label: a letter (its character), the k-th dim of the ellipsis (kEllipsis + k) or the later copy of a
/// repeated letter (kFresh + ...).
using Label = int64_t;
constexpr Label kEllipsis = 256, kFresh = 1024;

std::string labelName(Label l) {
  if (l < kEllipsis)
    return "'" + std::string(1, static_cast<char>(l)) + "'";
  if (l < kFresh)
    return "dim " + std::to_string(l - kEllipsis) + " of '...'";
  return "a repeated letter";
}

/// One term of the equation: its letters, and where its "..." stands among them (-1: none).
struct Term {
  SmallVector<char> letters;
  int64_t ellipsisAt = -1;
  std::string text;
};

/// An operand (or partial product) as the lowering goes: its value and one label per dim.
struct Operand {
  Value value;
  SmallVector<Label> labels;
};

class EinsumLowering {
public:
  explicit EinsumLowering(NodeImporter &n) : n(n) {}
  LogicalResult run();

private:
  FailureOr<Term> parseTerm(StringRef text, StringRef which, bool isOutput);
  LogicalResult parse(StringRef equation, ArrayRef<RankedTensorType> types);
  LogicalResult noteExtent(Label l, int64_t extent, int input);
  FailureOr<Operand> prepare(int input, Value x);
  FailureOr<Value> sumAndArrange(const Operand &x, ArrayRef<Label> order);
  FailureOr<Operand> multiply(const Operand &a, const Operand &b, const std::set<Label> &needed);
  SmallVector<int64_t> extentsOf(ArrayRef<Label> labels) const {
    SmallVector<int64_t> shape;
    for (Label l : labels)
      shape.push_back(extents.at(l));
    return shape;
  }

  NodeImporter &n;
  std::string equation;
  SmallVector<SmallVector<Label>> terms; ///< per input: one label per dim
  SmallVector<Label> output;
  std::map<Label, int64_t> extents; ///< the extent of each label (broadcast over the operands)
  Label nextFresh = kFresh;
};

FailureOr<Term> EinsumLowering::parseTerm(StringRef text, StringRef which, bool isOutput) {
  Term term;
  term.text = text.str();
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (llvm::isAlpha(c)) {
      if (isOutput && llvm::is_contained(term.letters, c))
        return n.unsupported("equation '" + equation + "': the output letter '" + Twine(c) + "' appears twice");
      term.letters.push_back(c);
    } else if (text.substr(i).starts_with("...")) {
      if (term.ellipsisAt >= 0)
        return n.unsupported("equation '" + equation + "': " + which + " '" + text + "' has two '...'");
      term.ellipsisAt = static_cast<int64_t>(term.letters.size());
      i += 2;
    } else {
      return n.unsupported("equation '" + equation + "': " + which + " '" + text + "' has the character '" +
                           Twine(c) + "' (an equation has letters, ',', '->' and '...')");
    }
  }
  return term;
}

LogicalResult EinsumLowering::parse(StringRef text, ArrayRef<RankedTensorType> types) {
  for (char c : text)
    if (c != ' ')
      equation.push_back(c);
  StringRef eq(equation);
  size_t arrow = eq.find("->");
  if (arrow != StringRef::npos && eq.find("->", arrow + 2) != StringRef::npos)
    return n.unsupported("equation '" + equation + "' has more than one '->'");
  SmallVector<StringRef> inputTexts;
  eq.take_front(arrow).split(inputTexts, ',');
  if (inputTexts.size() != types.size())
    return n.unsupported("equation '" + equation + "' has " + Twine(inputTexts.size()) + " operand term(s), the node " +
                         Twine(types.size()) + " input(s)");
  // The ellipsis stands for the dims a term's letters leave; numpy aligns those from the right.
  SmallVector<Term> inputs;
  int64_t ellipsisRank = 0;
  bool anyEllipsis = false;
  for (auto [k, termText] : llvm::enumerate(inputTexts)) {
    auto term = parseTerm(termText, "term #" + std::to_string(k), /*isOutput=*/false);
    if (failed(term))
      return failure();
    int64_t rank = types[k].getRank(), letters = static_cast<int64_t>(term->letters.size());
    if (term->ellipsisAt < 0 ? letters != rank : letters > rank)
      return n.unsupported("equation '" + equation + "': term #" + Twine(k) + " '" + termText + "' has " +
                           Twine(letters) + " letter(s), input #" + Twine(k) + " has rank " + Twine(rank));
    if (term->ellipsisAt >= 0) {
      anyEllipsis = true;
      ellipsisRank = std::max(ellipsisRank, rank - letters);
    }
    inputs.push_back(std::move(*term));
  }
  auto expand = [&](const Term &term, int64_t dims) {
    SmallVector<Label> labels;
    for (auto [i, c] : llvm::enumerate(term.letters)) {
      if (static_cast<int64_t>(i) == term.ellipsisAt)
        for (int64_t d = ellipsisRank - dims; d < ellipsisRank; ++d)
          labels.push_back(kEllipsis + d);
      labels.push_back(static_cast<unsigned char>(c));
    }
    if (term.ellipsisAt == static_cast<int64_t>(term.letters.size()))
      for (int64_t d = ellipsisRank - dims; d < ellipsisRank; ++d)
        labels.push_back(kEllipsis + d);
    return labels;
  };
  for (auto [k, term] : llvm::enumerate(inputs)) {
    int64_t dims = term.ellipsisAt < 0 ? 0 : types[k].getRank() - static_cast<int64_t>(term.letters.size());
    terms.push_back(expand(term, dims));
    for (auto [d, l] : llvm::enumerate(terms.back()))
      if (failed(noteExtent(l, types[k].getDimSize(d), k)))
        return failure();
  }
  if (arrow == StringRef::npos) { // implicit: the ellipsis dims, then the letters that appear once, sorted
    for (int64_t d = 0; anyEllipsis && d < ellipsisRank; ++d)
      output.push_back(kEllipsis + d);
    std::map<Label, int> count;
    for (const auto &term : terms)
      for (Label l : term)
        if (l < kEllipsis)
          ++count[l];
    for (auto [l, c] : count)
      if (c == 1)
        output.push_back(l);
    return success();
  }
  auto out = parseTerm(eq.drop_front(arrow + 2), "the output", /*isOutput=*/true);
  if (failed(out))
    return failure();
  for (char c : out->letters)
    if (!extents.count(static_cast<unsigned char>(c)))
      return n.unsupported("equation '" + equation + "': the output letter '" + Twine(c) + "' is in no input term");
  if (out->ellipsisAt < 0 && ellipsisRank > 0)
    return n.unsupported("equation '" + equation + "': the output has no '...' for the " + Twine(ellipsisRank) +
                         " dim(s) the inputs' '...' stand for");
  output = expand(*out, out->ellipsisAt < 0 ? 0 : ellipsisRank);
  return success();
}

LogicalResult EinsumLowering::noteExtent(Label l, int64_t extent, int input) {
  if (ShapedType::isDynamic(extent))
    return n.unsupported("input #" + Twine(input) + " has a dynamic shape");
  auto [it, inserted] = extents.try_emplace(l, extent);
  if (inserted || it->second == extent || extent == 1)
    return success();
  if (it->second == 1) {
    it->second = extent;
    return success();
  }
  return n.unsupported("equation '" + equation + "': " + labelName(l) + " has extents " + Twine(it->second) + " and " +
                       Twine(extent) + ", which do not broadcast");
}

/// Input `input` with its repeated letters turned into diagonals and its broadcast dims reshaped away.
FailureOr<Operand> EinsumLowering::prepare(int input, Value x) {
  Operand op{x, terms[input]};
  auto type = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> shape = type.getShape();
  for (size_t first = 0; first < op.labels.size(); ++first) {
    SmallVector<size_t> copies;
    for (size_t d = first + 1; d < op.labels.size(); ++d)
      if (op.labels[d] == op.labels[first])
        copies.push_back(d);
    if (copies.empty())
      continue;
    for (size_t d : copies)
      if (shape[d] != shape[first])
        return n.unsupported("equation '" + equation + "': " + labelName(op.labels[first]) + " repeats in term #" +
                             Twine(input) + " over dims of " + Twine(shape[first]) + " and " + Twine(shape[d]));
    // The diagonal: x * (1 where the indices of these dims agree), the later copies summed away.
    SmallVector<int64_t> maskShape(shape.size(), 1);
    maskShape[first] = shape[first];
    for (size_t d : copies)
      maskShape[d] = shape[d];
    auto mask = filledConstant(n, type.getElementType(), maskShape, [&](ArrayRef<int64_t> index) {
      return llvm::all_of(copies, [&](size_t d) { return index[d] == index[first]; }) ? 1.0 : 0.0;
    });
    auto masked = binaryOf<MulOp>(n, op.value, mask);
    if (failed(masked))
      return failure();
    op.value = *masked;
    for (size_t d : copies) {
      extents[nextFresh] = shape[d];
      op.labels[d] = nextFresh++;
    }
  }
  // A dim of extent 1 broadcast against a larger one elsewhere contributes the same value along it: drop it.
  SmallVector<Label> kept;
  SmallVector<int64_t> keptShape;
  for (auto [d, l] : llvm::enumerate(op.labels))
    if (shape[d] == extents.at(l)) {
      kept.push_back(l);
      keptShape.push_back(shape[d]);
    }
  if (kept.size() != op.labels.size()) {
    auto reshaped = n.reshape(op.value, keptShape);
    if (failed(reshaped))
      return failure();
    op = {*reshaped, kept};
  }
  return op;
}

/// x with the labels not in `order` summed away and the others transposed to `order` (all of which x has).
FailureOr<Value> EinsumLowering::sumAndArrange(const Operand &x, ArrayRef<Label> order) {
  SmallVector<int64_t> perm;
  for (Label l : order) {
    const Label *at = llvm::find(x.labels, l);
    if (at == x.labels.end())
      return n.unsupported("equation '" + equation + "': " + labelName(l) + " is lost in the lowering");
    perm.push_back(at - x.labels.begin());
  }
  int64_t kept = static_cast<int64_t>(perm.size());
  for (auto [d, l] : llvm::enumerate(x.labels))
    if (!llvm::is_contained(order, l))
      perm.push_back(static_cast<int64_t>(d));
  FailureOr<Value> v = x.value;
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, static_cast<int64_t>(perm.size()))))
    v = n.create<TransposeOp>(x.value, {n.i64Array("perm", perm)});
  if (failed(v) || kept == static_cast<int64_t>(perm.size()))
    return v;
  SmallVector<int64_t> summed = llvm::to_vector(llvm::seq<int64_t>(kept, static_cast<int64_t>(perm.size())));
  return n.create<ReduceSumOp>(*v, {n.i64Array("axes", summed), n.boolean("keepdims", false)});
}

/// The product of a and b over their shared labels that `needed` does not hold.
FailureOr<Operand> EinsumLowering::multiply(const Operand &a, const Operand &b, const std::set<Label> &needed) {
  SmallVector<Label> batch, contracted, keptA, keptB;
  for (Label l : a.labels) {
    bool inB = llvm::is_contained(b.labels, l), need = needed.count(l) != 0;
    if (inB)
      (need ? batch : contracted).push_back(l);
    else if (need)
      keptA.push_back(l);
  }
  for (Label l : b.labels)
    if (!llvm::is_contained(a.labels, l) && needed.count(l))
      keptB.push_back(l);
  SmallVector<Label> orderA(batch), orderB(batch);
  orderA.append(keptA);
  orderA.append(contracted);
  orderB.append(contracted);
  orderB.append(keptB);
  auto x = sumAndArrange(a, orderA), y = sumAndArrange(b, orderB);
  if (failed(x) || failed(y))
    return failure();
  int64_t nb = product(extentsOf(batch)), m = product(extentsOf(keptA)), k = product(extentsOf(contracted)),
          nn = product(extentsOf(keptB));
  FailureOr<Value> result = failure();
  if (contracted.empty()) { // nothing to sum: an elementwise product, broadcast
    result = binaryOf<MulOp>(n, n.reshape(*x, {nb, m, 1}), n.reshape(*y, {nb, 1, nn}));
  } else if (nb == 1) {
    auto x2 = n.reshape(*x, {m, k}), y2 = n.reshape(*y, {k, nn});
    if (failed(x2) || failed(y2))
      return failure();
    result = n.create<MatMulOp>(ValueRange{*x2, *y2});
  } else {
    auto x3 = n.reshape(*x, {nb, m, k}), y3 = n.reshape(*y, {nb, k, nn});
    if (failed(x3) || failed(y3))
      return failure();
    result = n.create<MatMulOp>(ValueRange{*x3, *y3});
  }
  if (failed(result))
    return failure();
  SmallVector<Label> labels(batch);
  labels.append(keptA);
  labels.append(keptB);
  auto shaped = n.reshape(*result, extentsOf(labels));
  if (failed(shaped))
    return failure();
  return Operand{*shaped, labels};
}

LogicalResult EinsumLowering::run() {
  if (failed(n.onlyAttrs({"equation"})))
    return failure();
  if (!n.hasAttr("equation"))
    return n.unsupported("the equation attribute is required");
  if (n.numInputs() == 0)
    return n.unsupported("Einsum needs at least one input");
  SmallVector<RankedTensorType> types;
  SmallVector<Value> values;
  for (int i = 0; i < n.numInputs(); ++i) {
    auto v = n.input(i);
    if (failed(v))
      return failure();
    values.push_back(*v);
    types.push_back(cast<RankedTensorType>(v->getType()));
  }
  if (failed(parse(n.attrString("equation", ""), types)))
    return failure();
  SmallVector<Operand> operands;
  for (int i = 0; i < n.numInputs(); ++i) {
    auto op = prepare(i, values[i]);
    if (failed(op))
      return failure();
    operands.push_back(std::move(*op));
  }
  Operand acc = operands.front();
  for (size_t i = 1; i < operands.size(); ++i) {
    std::set<Label> needed(output.begin(), output.end());
    for (size_t later = i + 1; later < operands.size(); ++later)
      needed.insert(operands[later].labels.begin(), operands[later].labels.end());
    auto product = multiply(acc, operands[i], needed);
    if (failed(product))
      return failure();
    acc = std::move(*product);
  }
  return bindResult(n, sumAndArrange(acc, output));
}

LogicalResult convertEinsum(NodeImporter &n) { return EinsumLowering(n).run(); }

} // namespace

void tx8be::onnx_import::addEinsumConverters(llvm::StringMap<NodeConverter> &converters) {
  converters["Einsum"] = convertEinsum;
}
