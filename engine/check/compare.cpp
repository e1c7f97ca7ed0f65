#include "engine/check/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "engine/inputs/slices.h"

namespace kta::engine {

namespace {

enum class Verdict { ok, outside_tolerance, nan_in_output, nan_missing, inf_mismatch };

Verdict judge(double got, double want, const model::Tolerance& tol) {
  if (std::isnan(got))
    return std::isnan(want) && tol.nan_equal ? Verdict::ok : Verdict::nan_in_output;
  if (std::isnan(want)) return Verdict::nan_missing;
  if (std::isinf(got) || std::isinf(want)) return got == want ? Verdict::ok : Verdict::inf_mismatch;
  return std::fabs(got - want) <= tol.atol + tol.rtol * std::fabs(want)
             ? Verdict::ok
             : Verdict::outside_tolerance;
}

// Element i as text: exact for 64-bit integers, whose neighbours above 2^53 print alike as
// doubles; `as_double` otherwise.
std::string element_text(const HostTensor& t, int64_t i, double as_double) {
  uint64_t raw = 0;
  if (t.dtype == model::DType::u64 || t.dtype == model::DType::i64)
    std::memcpy(&raw, t.bytes.data() + i * 8, 8);
  if (t.dtype == model::DType::u64) return fmt::format("{}", raw);
  if (t.dtype == model::DType::i64) return fmt::format("{}", static_cast<int64_t>(raw));
  return fmt::format("{}", as_double);
}

std::string first_bad_text(const CompareResult& r, const HostTensor& got_t,
                           const HostTensor& want_t) {
  double got = r.got_at_first_bad;
  std::string want = element_text(want_t, r.first_bad_index, r.want_at_first_bad);
  if (std::isnan(got))
    return fmt::format("NaN at index {} where the reference is {}", r.first_bad_index, want);
  return fmt::format("first at index {}: got {}, want {}", r.first_bad_index,
                     element_text(got_t, r.first_bad_index, got), want);
}

// |got - want| of element i of a 64-bit integer tensor, exactly: above 2^53 neighbouring values
// share a double, and a hash or bit pattern off by one must still fail.
double exact_int_difference(const HostTensor& got, const HostTensor& want, size_t i) {
  uint64_t g, w;
  std::memcpy(&g, got.bytes.data() + i * 8, 8);
  std::memcpy(&w, want.bytes.data() + i * 8, 8);
  if (got.dtype == model::DType::i64) {
    auto a = static_cast<__int128>(static_cast<int64_t>(g));
    auto b = static_cast<__int128>(static_cast<int64_t>(w));
    return static_cast<double>(a > b ? a - b : b - a);
  }
  return static_cast<double>(g > w ? g - w : w - g);
}

// One slice [begin, end) of a comparison: the figures of CompareResult over it.
struct Scan {
  CompareResult result;
  uint64_t nan_where_number = 0;
};

constexpr size_t kParallelElements = size_t(1) << 18;

Scan scan(const HostTensor& got, const HostTensor& want, const model::Tolerance& tol, size_t begin,
          size_t end) {
  Scan s;
  CompareResult& r = s.result;
  bool wide_int = got.dtype == model::DType::i64 || got.dtype == model::DType::u64;
  constexpr size_t kChunk = 2048;
  double g_buf[kChunk], w_buf[kChunk];
  for (size_t base = begin; base < end; base += kChunk) {
    size_t m = std::min(kChunk, end - base);
    load_elements(got, base, m, g_buf);
    load_elements(want, base, m, w_buf);
    for (size_t k = 0; k < m; ++k) {
      double g = g_buf[k], w = w_buf[k];
      if (std::isnan(g)) ++r.nan_in_output;
      if (std::isfinite(g) && std::isfinite(w)) {
        double abs_err = std::fabs(g - w);
        r.max_abs_error = std::max(r.max_abs_error, abs_err);
        if (w != 0) r.max_rel_error = std::max(r.max_rel_error, abs_err / std::fabs(w));
      }
      Verdict v = judge(g, w, tol);
      if (wide_int && g == w) {
        double d = exact_int_difference(got, want, base + k);
        r.max_abs_error = std::max(r.max_abs_error, d);
        if (d > tol.atol + tol.rtol * std::fabs(w)) v = Verdict::outside_tolerance;
      }
      if (v == Verdict::ok) continue;
      if (v == Verdict::nan_in_output) ++s.nan_where_number;
      if (r.examples.size() < kMismatchExamples)
        r.examples.push_back({static_cast<int64_t>(base + k), g, w});
      if (r.mismatches++ == 0) {
        r.first_bad_index = static_cast<int64_t>(base + k);
        r.got_at_first_bad = g;
        r.want_at_first_bad = w;
      }
    }
  }
  return s;
}

}  // namespace

CompareResult compare(const HostTensor& got, const HostTensor& want, const model::Tolerance& tol) {
  CompareResult r;
  if (got.dtype != want.dtype || got.shape != want.shape) {
    r.reason =
        fmt::format("{} mismatch: got {}, want {}", got.dtype != want.dtype ? "dtype" : "shape",
                    describe(got), describe(want));
    return r;
  }
  if (got.bytes.size() != got.numel() * got.element_size() ||
      want.bytes.size() != want.numel() * want.element_size()) {
    r.reason = fmt::format("size mismatch: {} holds {} bytes, reference {} bytes", describe(got),
                           got.bytes.size(), want.bytes.size());
    return r;
  }
  size_t n = got.numel();
  r.elements = n;
  // Large tensors are scanned in slices on all cores (a mebi-element output took ~4 ms on one
  // thread, a tenth of a GPU evaluation); slices merge in index order, so the result is the same.
  size_t count = n >= kParallelElements ? slice_count(n, kParallelElements / 2) : 1;
  std::vector<Scan> parts(count);
  for_slices(n, count, [&](size_t i, size_t begin, size_t end) {
    parts[i] = scan(got, want, tol, begin, end);
  });
  // NaN where the reference has a number fails regardless of max_mismatch: poisoned (untouched)
  // elements read as NaN, and a mismatch allowance must not become a license to skip work.
  uint64_t nan_where_number = 0;
  for (const Scan& p : parts) {
    const CompareResult& x = p.result;
    r.nan_in_output += x.nan_in_output;
    r.max_abs_error = std::max(r.max_abs_error, x.max_abs_error);
    r.max_rel_error = std::max(r.max_rel_error, x.max_rel_error);
    nan_where_number += p.nan_where_number;
    if (x.mismatches > 0 && r.mismatches == 0) {
      r.first_bad_index = x.first_bad_index;
      r.got_at_first_bad = x.got_at_first_bad;
      r.want_at_first_bad = x.want_at_first_bad;
    }
    r.mismatches += x.mismatches;
    for (const Mismatch& m : x.examples) {
      if (r.examples.size() < kMismatchExamples) r.examples.push_back(m);
    }
  }
  auto allowed = static_cast<uint64_t>(std::floor(tol.max_mismatch * static_cast<double>(n)));
  r.pass = r.mismatches <= allowed && nan_where_number == 0;
  if (r.pass) return r;
  if (r.mismatches == 1) {
    r.reason = std::isnan(r.got_at_first_bad)
                   ? first_bad_text(r, got, want)
                   : fmt::format("1 of {} elements outside tolerance ({})", n,
                                 first_bad_text(r, got, want));
  } else {
    r.reason = fmt::format("{} of {} elements outside tolerance ({})", r.mismatches, n,
                           first_bad_text(r, got, want));
  }
  if (nan_where_number > 0 && r.mismatches > 1)
    r.reason += fmt::format("; {} NaN where the reference has a number", nan_where_number);
  if (allowed > 0 && nan_where_number == 0) r.reason += fmt::format("; allowed {}", allowed);
  return r;
}

}  // namespace kta::engine
