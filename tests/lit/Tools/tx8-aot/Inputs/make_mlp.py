"""Prints a tx8be model of three linear layers (a transformer MLP and a projection): x [8, 64] -> 256 -> 64 -> 32,
bias and ReLU after the first two. Every weight column and bias element differs (a small integer pattern in
sixteenths, exact in fp32), so a box taken from the wrong columns changes the output. Other widths: make_mlp.py
X H1 H2 Y (default 64 256 64 32)."""
import sys


def matrix(rows, cols, seed):
    return "[" + ", ".join(
        "[" + ", ".join("%.4f" % ((((r * 7 + c * 13 + seed) % 17) - 8) / 16.0) for c in range(cols)) + "]"
        for r in range(rows)) + "]"


def vector(n, seed):
    return "[" + ", ".join("%.3f" % ((((i * 5 + seed) % 11) - 5) / 8.0) for i in range(n)) + "]"


X, H1, H2, Y = (int(a) for a in sys.argv[1:5]) if len(sys.argv) > 4 else (64, 256, 64, 32)
print("""module {
  func.func @main(%%x: tensor<8x%(X)dxf32> {tx8be.name = "x"}) -> (tensor<8x%(Y)dxf32> {tx8be.name = "y"}) {
    %%w1 = tx8be.Constant dense<%(w1)s> : tensor<%(X)dx%(H1)dxf32> loc("w1")
    %%b1 = tx8be.Constant dense<%(b1)s> : tensor<%(H1)dxf32> loc("b1")
    %%w2 = tx8be.Constant dense<%(w2)s> : tensor<%(H1)dx%(H2)dxf32> loc("w2")
    %%b2 = tx8be.Constant dense<%(b2)s> : tensor<%(H2)dxf32> loc("b2")
    %%w3 = tx8be.Constant dense<%(w3)s> : tensor<%(H2)dx%(Y)dxf32> loc("w3")
    %%m1 = tx8be.MatMul %%x, %%w1 : (tensor<8x%(X)dxf32>, tensor<%(X)dx%(H1)dxf32>) -> tensor<8x%(H1)dxf32> loc("fc1")
    %%a1 = tx8be.Add %%m1, %%b1 : (tensor<8x%(H1)dxf32>, tensor<%(H1)dxf32>) -> tensor<8x%(H1)dxf32> loc("fc1.bias")
    %%r1 = tx8be.Relu %%a1 : (tensor<8x%(H1)dxf32>) -> tensor<8x%(H1)dxf32> loc("fc1.relu")
    %%m2 = tx8be.MatMul %%r1, %%w2 : (tensor<8x%(H1)dxf32>, tensor<%(H1)dx%(H2)dxf32>) -> tensor<8x%(H2)dxf32> loc("fc2")
    %%a2 = tx8be.Add %%m2, %%b2 : (tensor<8x%(H2)dxf32>, tensor<%(H2)dxf32>) -> tensor<8x%(H2)dxf32> loc("fc2.bias")
    %%r2 = tx8be.Relu %%a2 : (tensor<8x%(H2)dxf32>) -> tensor<8x%(H2)dxf32> loc("fc2.relu")
    %%y = tx8be.MatMul %%r2, %%w3 : (tensor<8x%(H2)dxf32>, tensor<%(H2)dx%(Y)dxf32>) -> tensor<8x%(Y)dxf32> loc("proj")
    return %%y : tensor<8x%(Y)dxf32>
  }
}""" % dict(X=X, H1=H1, H2=H2, Y=Y, w1=matrix(X, H1, 1), b1=vector(H1, 2), w2=matrix(H1, H2, 3), b2=vector(H2, 4),
            w3=matrix(H2, Y, 5)))
