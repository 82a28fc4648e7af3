"""Complex tensors and FFTs on the CPU target against eager PyTorch (issue 17).

    python bench/torch_complex.py [--threads 1] [--rounds 20]

Cases (batch 1): FNet's Fourier token mixing (`torch.fft.fftn(x, dim=(1, 2)).real`) at a
small size (128 x 64) and at FNet-base's layer size (512 x 768), an rfft magnitude
spectrum of 1 s of 16 kHz audio in 512-sample frames (torch.stft, hop 128), and Meta
Llama's rotary embedding on q and k (32 heads of 128, 512 positions). For each: Strata's
compile (strata.compile of the module to the end of its first call, compiled-model cache
off) and the run time per call of Strata and of eager, all in process CPU seconds
(time.process_time: the machine's load does not count), the median of the rounds, and
the largest difference from eager.

FFTs lower to DFTs ([Note: twiddle tables] in conversion/onnx_to_linalg/signal.py): a
product with a table of N x N twiddles, O(N^2) per transform where PyTorch's pocketfft
is O(N log N), so the gap widens with N; the table's size caps the product path
(TWIDDLE_TABLE_MAX entries, beyond it the reduction with the factors computed in the
loop).
"""
from __future__ import annotations

import argparse
import statistics
import time
import warnings


def _cases():
    import torch
    nn = torch.nn

    class FNetMix(nn.Module):
        def forward(self, x):
            return torch.fft.fftn(x, dim=(1, 2)).real

    class Spectrum(nn.Module):
        def forward(self, x):
            return torch.stft(x, 512, hop_length=128, window=torch.hann_window(512),
                              return_complex=True).abs()

    class Rotary(nn.Module):
        def __init__(self, heads=32, hd=128, seq=512):
            super().__init__()
            freqs = 1.0 / (10000 ** (torch.arange(0, hd, 2)[: hd // 2].float() / hd))
            angles = torch.outer(torch.arange(seq), freqs).float()
            self.register_buffer("fc", torch.polar(torch.ones_like(angles), angles))

        def forward(self, q, k):
            fc = self.fc.view(1, q.shape[1], 1, -1)
            qc = torch.view_as_complex(q.reshape(*q.shape[:-1], -1, 2))
            kc = torch.view_as_complex(k.reshape(*k.shape[:-1], -1, 2))
            return (torch.view_as_real(qc * fc).flatten(3),
                    torch.view_as_real(kc * fc).flatten(3))

    g = torch.Generator().manual_seed(0)
    return {
        "fnet_mix 128x64": (FNetMix(), (torch.randn(1, 128, 64, generator=g),)),
        "fnet_mix 512x768": (FNetMix(), (torch.randn(1, 512, 768, generator=g),)),
        "stft |.| 16k/512": (Spectrum(), (torch.randn(1, 16000, generator=g),)),
        "rotary 32x128x512": (Rotary(), (torch.randn(1, 512, 32, 128, generator=g),
                                         torch.randn(1, 512, 32, 128, generator=g))),
    }


def _per_call(fn, args, rounds):
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        fn(*args)
        times.append(time.process_time() - t0)
    return statistics.median(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("-k", dest="pattern", help="substring of the case names")
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore")
    import torch

    import strata
    torch.set_num_threads(args.threads)
    print(f"{'case':20} {'compile s':>10} {'strata ms':>10} {'eager ms':>10} "
          f"{'max diff':>10}   (process CPU, {args.threads} thread(s))")
    for name, (m, a) in _cases().items():
        if args.pattern and args.pattern not in name:
            continue
        with torch.no_grad():
            t0 = time.process_time()
            f = strata.compile(m, example_args=a, cache=False)
            f.num_threads = args.threads
            got = f(*a)
            tc = time.process_time() - t0
            want = m(*a)
            if isinstance(want, torch.Tensor):
                got, want = (got,), (want,)
            diff = max(float((g - w).abs().max()) for g, w in zip(got, want))
            ts = _per_call(f, a, args.rounds)
            te = _per_call(m, a, args.rounds)
        print(f"{name:20} {tc:10.2f} {ts * 1e3:10.2f} {te * 1e3:10.2f} {diff:10.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
