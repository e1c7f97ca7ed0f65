#include "engine/execute/judge.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "engine/check/compare.h"
#include "engine/check/poison.h"
#include "lang/eval.h"

namespace kta::engine {

model::Tolerance tolerance_for(const model::Task& task, const std::string& name) {
  auto it = task.tolerances.find(name);
  return it == task.tolerances.end() ? model::Tolerance{} : it->second;
}

// Compares every output against the reference and every input, byte for byte, against what was
// uploaded (both host copies are at hand, so no digest a crafted kernel could collide with).
CheckResult judge(const model::Task& task, const HostSet& inputs, const HostSet& after_inputs,
                  const HostSet& got, const HostSet& want, ShapeRecord& rec) {
  CheckResult r;
  r.correct = true;
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    const auto& t = task.tensors[i];
    if (is_output(t)) {
      model::Tolerance tol = tolerance_for(task, t.name);
      // A tolerance over params holds at this point only; the reason says what it was here
      // (not the blind reason: at a held-out point it would tell the shape).
      std::string used;
      if (tol.per_point()) {
        try {
          tol = lang::tolerance_at(tol, rec.point, task);
          used = "; tolerance here " + lang::tolerance_text(tol);
        } catch (const lang::EvalError& e) {
          if (r.correct) {
            r.correct = false;
            r.reason = t.name + ": the tolerance cannot be evaluated at this point: " + e.what();
            r.blind_reason = t.name + ": the tolerance cannot be evaluated at this point";
          }
          continue;
        }
      }
      CompareResult c = compare(got[i], want[i], tol);
      rec.max_abs_error = std::max(rec.max_abs_error, c.max_abs_error);
      rec.max_rel_error = std::max(rec.max_rel_error, c.max_rel_error);
      rec.mismatches += c.mismatches;
      if (!c.pass && r.correct) {
        r.correct = false;
        rec.first_bad_index = c.first_bad_index;
        r.reason = t.name + ": " + c.reason + used;
        char buf[160];
        if (c.nan_in_output > 0) {
          std::snprintf(buf, sizeof buf, "%s: NaN in the output", t.name.c_str());
        } else {
          std::snprintf(buf, sizeof buf, "%s: outside tolerance (max abs error %.3g)",
                        t.name.c_str(), c.max_abs_error);
        }
        r.blind_reason = buf;
      }
    } else if (after_inputs[i].bytes != inputs[i].bytes) {
      if (r.correct) {
        r.reason = "input '" + t.name + "' was modified by the kernel";
        r.blind_reason = r.reason;
      }
      r.correct = false;
    }
  }
  return r;
}

std::string mask_numbers(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      out += '#';
      while (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace kta::engine
