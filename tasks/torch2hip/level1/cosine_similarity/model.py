# The cosine_similarity task: the cosine of the angle between matching rows of two [M, D] f32
# matrices (embedding similarity, contrastive losses). Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class CosineSimilarity(torch.nn.Module):
    """The baseline: PyTorch's cosine_similarity over dim 1."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, a, b):
        return F.cosine_similarity(a, b, dim=1, eps=self.eps)


class CosineSimilarityRef(torch.nn.Module):
    """The reference, written out from the definition in f64: the row dot product divided by the
    product of the row norms, each norm clamped below at eps; rounded once to f32."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, a, b):
        ad = a.double()
        bd = b.double()
        dot = (ad * bd).sum(dim=1)
        na = torch.sqrt((ad * ad).sum(dim=1)).clamp_min(self.eps)
        nb = torch.sqrt((bd * bd).sum(dim=1)).clamp_min(self.eps)
        return (dot / (na * nb)).to(a.dtype)
