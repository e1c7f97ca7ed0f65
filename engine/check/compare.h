// The correctness check: a candidate's output against the reference's, element by element,
// under a tolerance. NaN is never a wildcard; Inf must match exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/inputs/host_tensor.h"
#include "lang/model.h"

namespace kta::engine {

// One element that failed the rule.
struct Mismatch {
  int64_t index = 0;
  double got = 0, want = 0;
};

// The verdict and the numbers behind it. `reason` names the failure in one line, e.g.
// "12 of 4096 elements outside tolerance (first at index 7: got 1.5, want 1.25)".
struct CompareResult {
  bool pass = false;
  double max_abs_error = 0;  // over finite pairs
  double max_rel_error = 0;  // |got-want| / |want| over finite pairs with want != 0
  uint64_t elements = 0;
  uint64_t mismatches = 0;       // elements failing the rule (NaN/Inf disagreements included)
  int64_t first_bad_index = -1;  // -1: none
  double got_at_first_bad = 0;
  double want_at_first_bad = 0;
  uint64_t nan_in_output = 0;      // NaN elements in `got`
  std::vector<Mismatch> examples;  // the first few mismatches (up to kMismatchExamples), in order
  std::string reason;              // empty when pass
};

inline constexpr size_t kMismatchExamples = 8;

// Rule per element: pass when |got-want| <= atol + rtol*|want|; NaN in got passes only when
// want is NaN and tol.nan_equal; ±Inf must equal want exactly. The tensor passes when
// mismatches <= floor(max_mismatch * elements) and no element is NaN where the reference has a
// number (untouched, poisoned elements read as NaN: an allowance must not license skipped work).
// Dtype or shape disagreement fails outright.
CompareResult compare(const HostTensor& got, const HostTensor& want, const model::Tolerance& tol);

}  // namespace kta::engine
