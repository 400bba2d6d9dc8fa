"""A torch.nn.Module compiled from Python (exported with torch.onnx.export) against PyTorch's own outputs."""
import numpy as np
import pytest

import tx8

torch = pytest.importorskip("torch")


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        y = torch.nn.functional.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)
        return torch.softmax(self.fc(y.flatten(1)), dim=1)


def test_module_round_trip():
    torch.manual_seed(0)
    module = Small().eval()
    with torch.no_grad():  # BatchNorm statistics that are not the identity
        module.bn.running_mean.uniform_(-0.2, 0.2)
        module.bn.running_var.uniform_(0.5, 1.5)
    x = torch.randn(2, 3, 8, 8)
    bundle = tx8.compile(module, example_inputs=(x,))
    assert [(i.name, i.shape) for i in bundle.inputs] == [("input_0", (2, 3, 8, 8))]
    (y,) = bundle.run([x.numpy()])
    with torch.no_grad():
        expected = module(x).numpy()
    assert y.shape == expected.shape == (2, 5)
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-6)
    assert bundle.cycles > 0
    assert module.training is False


def test_module_needs_example_inputs():
    with pytest.raises(tx8.UsageError, match="example_inputs"):
        tx8.compile(Small())
