# Reference for the rope task: rotary position embedding (rotate-half form) in f64, rounded once
# to the output dtype.
import torch


def rope_ref(x, cos, sin):
    half = x.shape[-1] // 2
    xd = x.double()
    x1, x2 = xd[..., :half], xd[..., half:]
    c = cos.double()[:, None, :]  # [T, 1, D/2], broadcast over heads
    s = sin.double()[:, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(x.dtype)
