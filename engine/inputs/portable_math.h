// log, exp and cos/sin built only from +, -, *, / and sqrt, which IEEE 754 rounds exactly: the
// input generator must give the same bits on every libm, compiler and CPU (no FMA contraction: the
// project compiles in ISO mode, where GCC and Clang keep floating-point expressions as written).
#pragma once

namespace kta::engine::portable {

// Natural log for finite x > 0 (within ~1 ulp).
double log(double x);
// e^x (within ~2 ulp); 0 below -745, inf above 709.8.
double exp(double x);
// cos(2*pi*t) and sin(2*pi*t) for t in [0, 1) (within ~2 ulp).
double cos_2pi(double t);
double sin_2pi(double t);
// Both at once, the same bits as the two above for half the work (Box-Muller needs both).
void sincos_2pi(double t, double* s, double* c);

}  // namespace kta::engine::portable
