# The kl_div task: the KL divergence of a student's predicted distribution from a teacher's, as in
# knowledge distillation, averaged over the batch. The distributions are computed from drawn
# logits inside the module (kta draws each element independently, so it cannot draw rows that sum
# to 1). Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class KlDiv(torch.nn.Module):
    """The baseline: what a distillation loss runs in PyTorch, log_softmax of the student's
    logits, softmax of the teacher's, then kl_div with reduction='batchmean' (several kernels)."""

    def forward(self, student, teacher):
        log_q = F.log_softmax(student, dim=1)
        p = F.softmax(teacher, dim=1)
        return F.kl_div(log_q, p, reduction="batchmean")


class KlDivRef(torch.nn.Module):
    """The reference, written out from the definitions in f64: log q = s - logsumexp(s),
    log p = t - logsumexp(t), p = exp(log p); KL = sum_{r, j} p (log p - log q) / B, rounded once
    to f32."""

    def forward(self, student, teacher):
        s = student.double()
        t = teacher.double()
        log_q = s - torch.logsumexp(s, dim=1, keepdim=True)
        log_p = t - torch.logsumexp(t, dim=1, keepdim=True)
        kl = (torch.exp(log_p) * (log_p - log_q)).sum() / s.shape[0]
        return kl.to(student.dtype)
