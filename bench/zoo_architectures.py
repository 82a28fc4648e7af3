"""Hand-written architectures of the model zoo (bench/zoo.py) that HF transformers lacks.

Written here in plain torch code (torchvision's wheel on the package index is a CUDA build
that does not load against the CPU torch pinned here, and timm imports torchvision):

  densenet(torch, growth=32, blocks=(6, 12, 24, 16), init=64, bn_size=4, classes=1000)
      DenseNet-BC (Huang et al. 2017; DenseNet-121 at the defaults): dense blocks whose
      layers (BN, ReLU, 1x1 conv, BN, ReLU, 3x3 conv) concatenate their `growth` new
      channels onto everything before them, transitions (BN, ReLU, 1x1 conv, 2x2 avg pool)
      halving channels and resolution between blocks.
  resnext(torch, depths=(3, 4, 6, 3), groups=32, width_per_group=4, classes=1000)
      ResNeXt (Xie et al. 2017; ResNeXt-50 32x4d at the defaults): ResNet-50's bottleneck
      blocks with the 3x3 convolution split into `groups` groups.
  fcn_head(torch, width=32, classes=21)
      A small DeepLab-style segmentation network: a strided CNN backbone, an ASPP head
      (1x1 and three dilated 3x3 branches plus global pooling, concatenated), and a
      bilinear upsampling back to the input's size.

Every builder takes the torch module (imported by the caller: `import strata` and this
file stay free of torch at import time) and returns an `nn.Module` in eval mode with
seeded-random batch-norm statistics (so the norms are not identities), e.g.

    m = densenet(torch, blocks=(2, 2))      # a two-block DenseNet for a quick test
    y = m(torch.randn(1, 3, 64, 64))        # (1, 1000)
"""
from __future__ import annotations


def randomize_batch_norms(torch, module, seed=0):
    """Gives every BatchNorm of `module` seeded non-trivial running statistics and affine
    parameters (a freshly built model has mean 0 and variance 1: an identity that hides
    mistakes in a compiler's folding of the norm)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for mod in module.modules():
            if isinstance(mod, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d)):
                n = mod.num_features
                mod.running_mean.copy_(torch.randn(n, generator=g) * 0.1)
                mod.running_var.copy_(torch.rand(n, generator=g) + 0.5)
                if mod.affine:
                    mod.weight.copy_(1 + 0.1 * torch.randn(n, generator=g))
                    mod.bias.copy_(0.1 * torch.randn(n, generator=g))
    return module.eval()


def densenet(torch, growth=32, blocks=(6, 12, 24, 16), init=64, bn_size=4, classes=1000):
    nn = torch.nn

    class DenseLayer(nn.Module):
        def __init__(self, cin):
            super().__init__()
            mid = bn_size * growth
            self.body = nn.Sequential(
                nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, mid, 1, bias=False),
                nn.BatchNorm2d(mid), nn.ReLU(), nn.Conv2d(mid, growth, 3, 1, 1, bias=False))

        def forward(self, x):
            return torch.cat([x, self.body(x)], 1)

    layers = [nn.Conv2d(3, init, 7, 2, 3, bias=False), nn.BatchNorm2d(init), nn.ReLU(),
              nn.MaxPool2d(3, 2, 1)]
    c = init
    for i, n in enumerate(blocks):
        for _ in range(n):
            layers.append(DenseLayer(c))
            c += growth
        if i + 1 < len(blocks):
            layers += [nn.BatchNorm2d(c), nn.ReLU(), nn.Conv2d(c, c // 2, 1, bias=False),
                       nn.AvgPool2d(2, 2)]
            c //= 2
    layers += [nn.BatchNorm2d(c), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
               nn.Linear(c, classes)]
    return randomize_batch_norms(torch, nn.Sequential(*layers))


def resnext(torch, depths=(3, 4, 6, 3), groups=32, width_per_group=4, classes=1000):
    nn = torch.nn

    class Bottleneck(nn.Module):
        def __init__(self, cin, planes, stride):
            super().__init__()
            width = planes * width_per_group * groups // 64
            cout = planes * 4
            self.body = nn.Sequential(
                nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
                nn.Conv2d(width, width, 3, stride, 1, groups=groups, bias=False),
                nn.BatchNorm2d(width), nn.ReLU(),
                nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          nn.BatchNorm2d(cout))

        def forward(self, x):
            return torch.relu(self.body(x) + (x if self.down is None else self.down(x)))

    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
              nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for i, n in enumerate(depths):
        planes = 64 * 2 ** i
        for j in range(n):
            layers.append(Bottleneck(cin, planes, 2 if (j == 0 and i > 0) else 1))
            cin = planes * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, classes)]
    return randomize_batch_norms(torch, nn.Sequential(*layers))


def fcn_head(torch, width=32, classes=21):
    nn = torch.nn
    F = nn.functional

    def cbr(cin, cout, k=3, stride=1, dilation=1):
        return nn.Sequential(
            nn.Conv2d(cin, cout, k, stride, dilation * (k // 2), dilation, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU())

    class DeepLab(nn.Module):
        def __init__(self):
            super().__init__()
            w = width
            self.backbone = nn.Sequential(cbr(3, w, stride=2), cbr(w, w), cbr(w, 2 * w, stride=2),
                                          cbr(2 * w, 2 * w), cbr(2 * w, 4 * w, stride=2),
                                          cbr(4 * w, 4 * w, dilation=2))
            c = 4 * w
            self.aspp = nn.ModuleList([cbr(c, c, 1)] + [cbr(c, c, 3, dilation=d)
                                                        for d in (2, 4, 6)])
            self.pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(c, c, 1), nn.ReLU())
            self.project = cbr(5 * c, c, 1)
            self.classify = nn.Conv2d(c, classes, 1)

        def forward(self, x):
            f = self.backbone(x)
            g = self.pool(f).expand(-1, -1, f.shape[2], f.shape[3])
            f = self.project(torch.cat([b(f) for b in self.aspp] + [g], 1))
            return F.interpolate(self.classify(f), size=x.shape[2:], mode="bilinear",
                                 align_corners=False)

    return randomize_batch_norms(torch, DeepLab())
