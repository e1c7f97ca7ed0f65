# The linear_logsumexp task: y = logsumexp(x @ w^T + b, dim=1), the log-partition function of a
# linear layer's logits (the normalizer of a classifier or language-model head). Weights are task
# inputs (drawn by kta). Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class LinearLogsumexp(torch.nn.Module):
    """The baseline: what a PyTorch model runs, a linear layer (GEMM + bias) that writes the
    [B, H] logits, then logsumexp over them (max, exp-sum, log)."""

    def forward(self, x, w, b):
        return torch.logsumexp(F.linear(x, w, b), dim=1)


class LinearLogsumexpRef(torch.nn.Module):
    """The reference, written out in f64: z = x w^T + b, y = m + log(sum_h exp(z_h - m)) with
    m = max_h z_h, rounded once to f32."""

    def forward(self, x, w, b):
        z = x.double() @ w.double().t() + b.double()
        m = z.max(dim=1).values
        return (m + torch.log(torch.exp(z - m.unsqueeze(1)).sum(dim=1))).to(x.dtype)
