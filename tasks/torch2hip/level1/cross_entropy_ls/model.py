# The cross_entropy_ls task: per-row cross-entropy of logits against integer class labels, with
# label smoothing. Runs on torch 1.13 and later (label_smoothing exists since 1.10), CPU and GPU.
import torch
import torch.nn.functional as F


class CrossEntropyLS(torch.nn.Module):
    """The baseline: PyTorch's cross_entropy, one loss per row (reduction='none')."""

    def __init__(self, smoothing):
        super().__init__()
        self.smoothing = float(smoothing)

    def forward(self, logits, target):
        return F.cross_entropy(logits, target, reduction="none", label_smoothing=self.smoothing)


class CrossEntropyLSRef(torch.nn.Module):
    """The reference, written out in f64 from the definition rather than through cross_entropy:
    loss = (1 - s) * (lse - z[t]) + s * (lse - mean_j z[j]), lse = log sum_j exp(z[j])."""

    def __init__(self, smoothing):
        super().__init__()
        self.smoothing = float(smoothing)

    def forward(self, logits, target):
        z = logits.double()
        lse = torch.logsumexp(z, dim=1)
        picked = z.gather(1, target.long().unsqueeze(1)).squeeze(1)
        s = self.smoothing
        loss = (1.0 - s) * (lse - picked) + s * (lse - z.mean(dim=1))
        return loss.to(logits.dtype)
