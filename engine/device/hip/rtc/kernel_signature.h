// Checking a hipRTC kernel's parameter types against the types the task declares. The check runs
// inside the compiler: generated C++ appended to the kernel's translation unit names the kernel's
// function type and fails a static_assert, whose message names the mismatch, for every type the
// task cannot pass. The same code records the kernel's parameter types in a device global
// (kta_entry_signature__) that the device reads after loading, to convert scalars to the kernel's
// declared C types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/device/device.h"

namespace kta::engine::hip {

// Type codes shared by the generated C++ and the device. A pointer has kPointer set and its
// pointee's code below; kConst marks a pointer to const.
enum ParamCode : uint16_t {
  kUnknown = 0,
  kBool,
  kI8,
  kU8,
  kI16,
  kU16,
  kI32,
  kU32,
  kI64,
  kU64,
  kF32,
  kF64,
  kF16,
  kBF16,
  kVoid,
  kF32x2,
  kF32x4,
  kF64x2,
  kI32x2,
  kI32x4,
  kU8x4,
  kI8x4,
  kF16x2,
  kBF16x2,
  kReference,
  kI64LL,  // long long: kI64 spelled as written, for messages
  kU64LL,  // unsigned long long
  kCodeCount,
  kPointer = 0x100,
  kConst = 0x200,
};

// Name of the device global holding {arity, code of parameter 1, ...}.
inline constexpr const char* kSignatureSymbol = "kta_entry_signature__";
// File name of the generated check in compiler messages.
inline constexpr const char* kCheckFileName = "kta-signature-check";

// C++ appended to the translation unit (after the kernel source) for kernel `entry`.
std::string signature_check_source(const std::string& entry,
                                   const std::vector<KernelArg>& declared);

// The C spelling of a code ("int", "const float*").
std::string code_spelling(uint16_t code);

// True when the task's argument can be passed to a kernel parameter of type `code`.
bool compatible(uint16_t code, const KernelArg& declared);

// Size in bytes of a by-value parameter of type `code` (0 when unknown).
size_t code_size(uint16_t code);

// Writes the task's scalar `a` converted to the kernel's C type `code` into `slot` (8 bytes).
void convert_scalar(const KernelArg& a, uint16_t code, uint64_t* slot);

}  // namespace kta::engine::hip
