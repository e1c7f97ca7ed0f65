// Checking a kernel's parameter types (as the compiled trampoline reports them) against the
// types the task declares, and converting the task's scalars to the kernel's C types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/device/device.h"

namespace kta::engine::cpu {

// One kernel parameter as the trampoline describes it: "i32", "*const f32", "*f16", ...
struct ParamType {
  bool pointer = false;
  bool is_const = false;
  std::string code;        // element code for pointers, value code for scalars ("f32", "i64", "?")
  bool long_long = false;  // i64 or u64 spelled `long long` / `unsigned long long`
};

std::vector<ParamType> parse_signature(const std::string& text);

// The C spelling of a parameter type, for messages ("int", "const float*").
std::string c_spelling(const ParamType& p);

// Empty when `declared` (the task) can be passed to `params` (the kernel), else
// "signature mismatch: parameter 3 'n' is int, the task passes i64".
std::string check_signature(const std::vector<ParamType>& params,
                            const std::vector<KernelArg>& declared,
                            const std::vector<std::string>& names, const std::string& entry);

// Writes the task's argument `a` converted to the kernel's scalar type into `slot` (8 bytes).
void convert_scalar(const KernelArg& a, const ParamType& p, uint64_t* slot);

}  // namespace kta::engine::cpu
