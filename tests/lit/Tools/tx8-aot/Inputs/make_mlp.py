"""Prints a tx8be model of three linear layers (a transformer MLP and a projection): x [8, 64] -> 256 -> 64 -> 32,
bias and ReLU after the first two. Every weight column and bias element differs (a small integer pattern in
sixteenths, exact in fp32), so a box taken from the wrong columns changes the output."""


def matrix(rows, cols, seed):
    return "[" + ", ".join(
        "[" + ", ".join("%.4f" % ((((r * 7 + c * 13 + seed) % 17) - 8) / 16.0) for c in range(cols)) + "]"
        for r in range(rows)) + "]"


def vector(n, seed):
    return "[" + ", ".join("%.3f" % ((((i * 5 + seed) % 11) - 5) / 8.0) for i in range(n)) + "]"


print("""module {
  func.func @main(%%x: tensor<8x64xf32> {tx8be.name = "x"}) -> (tensor<8x32xf32> {tx8be.name = "y"}) {
    %%w1 = tx8be.Constant dense<%s> : tensor<64x256xf32> loc("w1")
    %%b1 = tx8be.Constant dense<%s> : tensor<256xf32> loc("b1")
    %%w2 = tx8be.Constant dense<%s> : tensor<256x64xf32> loc("w2")
    %%b2 = tx8be.Constant dense<%s> : tensor<64xf32> loc("b2")
    %%w3 = tx8be.Constant dense<%s> : tensor<64x32xf32> loc("w3")
    %%m1 = tx8be.MatMul %%x, %%w1 : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32> loc("fc1")
    %%a1 = tx8be.Add %%m1, %%b1 : (tensor<8x256xf32>, tensor<256xf32>) -> tensor<8x256xf32> loc("fc1.bias")
    %%r1 = tx8be.Relu %%a1 : (tensor<8x256xf32>) -> tensor<8x256xf32> loc("fc1.relu")
    %%m2 = tx8be.MatMul %%r1, %%w2 : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32> loc("fc2")
    %%a2 = tx8be.Add %%m2, %%b2 : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32> loc("fc2.bias")
    %%r2 = tx8be.Relu %%a2 : (tensor<8x64xf32>) -> tensor<8x64xf32> loc("fc2.relu")
    %%y = tx8be.MatMul %%r2, %%w3 : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32> loc("proj")
    return %%y : tensor<8x32xf32>
  }
}""" % (matrix(64, 256, 1), vector(256, 2), matrix(256, 64, 3), vector(64, 4), matrix(64, 32, 5)))
