// Every diagnostic text of the language front end, in one table. Texts are fmt format strings:
// lowercase, no trailing period, naming the offender.
#pragma once

#include <string_view>

namespace kta::lang {

// X(id, severity, format)
#define KTA_LANG_MESSAGES(X)                                                                       \
  X(none, error, "{}")                                                                             \
  /* syntax */                                                                                     \
  X(expected_declaration, error,                                                                   \
    "expected a declaration (import, const, tolerance, timing, distribution, generator, agent, "   \
    "task or plan), found {}")                                                                     \
  X(unknown_declaration_hint, error, "unknown declaration '{}'; did you mean '{}'?")               \
  X(expected_name, error, "expected a name, found {}")                                             \
  X(expected_module, error, "expected a module path such as std.inputs, found {}")                 \
  X(expected_lbrace, error, "expected '{{', found {}")                                             \
  X(expected_rbrace, error, "expected '}}', found {}")                                             \
  X(expected_lparen, error, "expected '(', found {}")                                              \
  X(expected_rparen, error, "expected ')', found {}")                                              \
  X(expected_rbracket, error, "expected ']', found {}")                                            \
  X(expected_colon, error, "expected ':', found {}")                                               \
  X(expected_eq, error, "expected '=', found {}")                                                  \
  X(expected_dotdot, error, "expected '..' in pow2(lo..hi), found {}")                             \
  X(expected_expr, error, "expected an expression, found {}")                                      \
  X(expected_exponent, error, "expected the digits of an exponent, found {}")                      \
  X(expected_axis, error, "expected 'in' or '=' after the axis name, found {}")                    \
  X(unexpected, error, "unexpected {}")                                                            \
  X(expected_string, error, "expected a string, found {}")                                         \
  X(expected_type, error, "expected a scalar type (i32 i64 u32 u64 f32 f64 bool), found {}")       \
  X(expected_dtype, error,                                                                         \
    "expected a dtype (f16 bf16 f32 f64 i8 i32 i64 u8 u32 u64 bool), found {}")                    \
  X(expected_lbracket_dims, error, "expected '[' and the tensor's dims, found {}")                 \
  X(expected_flavor, error, "expected a flavour (hip, torch or triton), found {}")                 \
  X(expected_entry_mode, error, "expected kernel, launcher, module or function, found {}")         \
  X(expected_shapes_kind, error, "expected 'visible' or 'heldout', found {}")                      \
  X(expected_grid, error, "expected '{{' or '= generator(...)' after the grid name, found {}")     \
  X(expected_grid_item, error,                                                                     \
    "expected an axis ('N in [...]', 'L = expr'), 'where' or '}}', found {}")                      \
  X(expected_axis_values, error, "expected a list, range(...) or pow2(...), found {}")             \
  X(expected_task_item, error, "expected a task statement or '}}', found {}")                      \
  X(expected_plan_item, error, "expected a plan statement or '}}', found {}")                      \
  X(expected_agent_item, error, "expected an agent statement or '}}', found {}")                   \
  X(expected_setting, error, "expected a setting or '}}', found {}")                               \
  X(expected_tolerance_body, error, "expected '= preset' or '{{ atol ... }}', found {}")           \
  X(expected_builtin_or_body, error, "expected 'builtin' or '{{', found {}")                       \
  X(expected_end_of_statement, error, "expected the end of the statement, found {}")               \
  X(expected_arg, error, "expected an argument, found {}")                                         \
  X(expected_param_decl, error, "expected a parameter 'name: type', found {}")                     \
  X(unterminated_string, error, "unterminated string literal")                                     \
  X(unterminated_text_block, error, "unterminated text block; expected a closing \"\"\"")          \
  X(unterminated_comment, error, "unterminated block comment")                                     \
  X(bad_escape, error, "unknown escape sequence in string, found {}")                              \
  X(nesting_too_deep, error, "nesting deeper than {} levels")                                      \
  X(bad_integer, error, "integer literal '{}' does not fit in 64 bits")                            \
  X(bad_number, error, "number '{}' is out of range")                                              \
  X(bad_unit, error,                                                                               \
    "unknown unit '{}'; expected a duration (ns us ms s m h) or size (B KiB MiB GiB KB MB GB)")    \
  /* files and imports */                                                                          \
  X(cannot_read, error, "cannot read '{}'")                                                        \
  X(unknown_module, error, "cannot find module '{}' (looked for '{}')")                            \
  X(import_cycle, error, "import cycle: {}")                                                       \
  X(duplicate_import, error, "module '{}' is imported more than once")                             \
  X(folder_without_kta, error, "folder '{}' holds no .kta file")                                   \
  X(folder_with_many_kta, error, "folder '{}' holds {} .kta files; name one")                      \
  X(nothing_to_load, error, "'{}' declares no task or plan")                                       \
  X(missing_source_file, error, "cannot find source file '{}'")                                    \
  /* names */                                                                                      \
  X(duplicate_definition, error, "duplicate definition of '{}'")                                   \
  X(duplicate_setting, error, "'{}' is set more than once")                                        \
  X(unknown_name, error, "unknown name '{}'")                                                      \
  X(unknown_name_hint, error, "unknown name '{}'; did you mean '{}'?")                             \
  X(unknown_param, error, "unknown param '{}'")                                                    \
  X(unknown_param_hint, error, "unknown param '{}'; did you mean '{}'?")                           \
  X(unknown_in_module, error, "module '{}' has no '{}'")                                           \
  X(unknown_in_module_hint, error, "module '{}' has no '{}'; did you mean '{}'?")                  \
  X(unknown_setting, error, "unknown setting '{}' in {}")                                          \
  X(unknown_setting_hint, error, "unknown setting '{}' in {}; did you mean '{}'?")                 \
  X(unknown_function, error, "unknown function '{}'")                                              \
  X(unknown_function_hint, error, "unknown function '{}'; did you mean '{}'?")                     \
  X(unknown_kind, error, "unknown task kind '{}'; expected hip2hip, triton2triton or torch2hip")   \
  X(unknown_gate, error,                                                                           \
    "unknown gate '{}'; expected compile, correctness, performance, audit or heldout")             \
  X(unknown_argument, error, "'{}' has no parameter '{}'")                                         \
  X(unknown_argument_hint, error, "'{}' has no parameter '{}'; did you mean '{}'?")                \
  X(unknown_tensor, error, "unknown tensor '{}'")                                                  \
  X(unknown_tensor_hint, error, "unknown tensor '{}'; did you mean '{}'?")                         \
  X(wrong_decl_kind, error, "'{}' is a {}, not a {}")                                              \
  /* types and values */                                                                           \
  X(type_mismatch, error, "{} must be {}, found {}")                                               \
  X(setting_arity, error, "'{}' takes {} value, found {}")                                         \
  X(not_constant, error, "{} must be a constant, but '{}' depends on a param")                     \
  X(const_cycle, error, "constant '{}' depends on itself")                                         \
  X(derived_not_param_used, error,                                                                 \
    "'{}' is a grid helper, not a param; declare 'param {}: i64' to use it here")                  \
  X(operand_mismatch, error, "operator '{}' cannot combine {} and {}")                             \
  X(argument_count, error, "'{}' takes {} arguments, found {}")                                    \
  X(missing_argument, error, "missing argument '{}' of '{}'")                                      \
  X(bad_distribution_argument, error, "argument '{}' of '{}' {}")                                  \
  X(distribution_dtype, error, "'{}' cannot fill the {} tensor '{}': {}")                          \
  X(duplicate_argument, error, "argument '{}' is given more than once")                            \
  X(positional_after_keyword, error, "positional argument after a keyword argument")               \
  X(too_many_arguments, error, "'{}' takes at most {} arguments, found {}")                        \
  X(value_out_of_range, error, "{} must be {}, found {}")                                          \
  X(division_by_zero, error, "division by zero in '{}'")                                           \
  X(not_a_power_of_two, error, "log2 of {}, which is not a power of two")                          \
  X(eval_failed, error, "cannot evaluate '{}' at {}: {}")                                          \
  X(eval_error, error, "cannot evaluate '{}': {}")                                                 \
  X(bad_enum, error, "{} must be one of {}, found '{}'")                                           \
  /* tasks */                                                                                      \
  X(missing_statement, error, "task '{}' has no {}")                                               \
  X(input_without_distribution, error, "{} '{}' needs a distribution, e.g. = std.inputs.normal()") \
  X(output_with_distribution, error, "output '{}' must not have a distribution")                   \
  X(output_without_tolerance, error, "{} '{}' has no tolerance")                                   \
  X(tolerance_on_input, error, "tolerance on input '{}'; only outputs and inouts are compared")    \
  X(tolerance_name_tensor, error,                                                                  \
    "tensor '{}' cannot be used in a tolerance; a tolerance may use params ({}) and constants")    \
  X(tolerance_name_unknown, error,                                                                 \
    "unknown name '{}' in a tolerance; a tolerance may use params ({}) and constants")             \
  X(tolerance_name_in_preset, error,                                                               \
    "unknown name '{}' in a tolerance preset; a preset may use constants only (a task's own "      \
    "'tolerance OUT {{ ... }}' may use its params)")                                               \
  X(no_outputs, error, "task '{}' declares no output or inout tensor")                             \
  X(fixed_param_in_grid, error, "'{}' is a fixed param and cannot be a grid axis")                 \
  X(axis_not_param, error, "axis '{}' is not a shape param of task '{}'")                          \
  X(duplicate_axis, error, "axis '{}' is bound more than once")                                    \
  X(tuple_axis_one_name, error, "tuple axis ({}) has one name; write '{} in [...]'")               \
  X(tuple_axis_derived, error, "tuple axis {} cannot be derived; write '{} in [(...), ...]'")      \
  X(tuple_axis_values, error,                                                                      \
    "values of tuple axis {} must be a list of tuples such as [(1, 2), (3, 4)], found {}")         \
  X(tuple_axis_arity, error, "tuple {} of axis {} has {} values, expected {}")                     \
  X(unbound_param, error, "grid '{}' does not bind shape param '{}'")                              \
  X(empty_grid, error, "grid '{}' has no points")                                                  \
  X(grid_too_large, error, "grid '{}' expands to more than {} points")                             \
  X(axis_too_large, error, "axis '{}' has more than {} values")                                    \
  X(heldout_equals_visible, warning, "held-out point {} is also a visible point")                  \
  X(bad_range, error, "range({}) has no values")                                                   \
  X(bad_pow2, error, "pow2({}..{}) needs 0 <= lo <= hi <= 62")                                     \
  X(editable_not_baseline, error, "editable file '{}' is not the baseline's source '{}'")          \
  X(editable_not_candidate, error, "editable file '{}' is not the candidate's source '{}'")        \
  X(candidate_missing, error,                                                                      \
    "torch2hip task '{}' has no candidate; declare the HIP starter the agent edits, e.g. "         \
    "candidate hip \"k.hip\" launcher")                                                            \
  X(candidate_flavor_mismatch, error,                                                              \
    "candidate is {} but the baseline is {}; a {} task compares like with like")                   \
  X(candidate_not_editable, error,                                                                 \
    "candidate source '{}' is not an editable file; add it to 'editable'")                         \
  X(kernel_arg_unknown, error, "kernel argument '{}' is not a declared tensor or param")           \
  X(kernel_arg_unknown_hint, error,                                                                \
    "kernel argument '{}' is not a declared tensor or param; did you mean '{}'?")                  \
  X(kernel_arg_duplicate, error, "kernel argument '{}' is passed more than once")                  \
  X(kernel_arg_missing, error, "kernel arguments of '{}' do not pass tensor '{}'")                 \
  X(entry_mode_mismatch, error, "a {} entry cannot use mode '{}'")                                 \
  X(launch_missing, error, "kernel '{}' needs 'grid' and 'block'")                                 \
  X(kind_flavor_mismatch, error, "a {} task needs a {} {}, found {}")                              \
  X(generator_needs_visible, error, "generator '{}' takes the visible grid as its first argument") \
  X(shape_rank_zero_dim, error, "tensor dim of '{}' must be an integer expression over params")    \
  X(unused_param, warning, "param '{}' is not used by any tensor, grid or entry")                  \
  /* plans and agents */                                                                           \
  X(plan_no_tasks, error, "plan '{}' names no tasks")                                              \
  X(plan_no_agent, error, "plan '{}' names no agent")                                              \
  X(task_path_not_found, error, "no task file matches '{}'")                                       \
  X(bad_device, error, "device must be auto, cpu, hip or \"hip:N\", found '{}'")                   \
  X(bad_device_option, error,                                                                      \
    "device option '{}' is unknown; the only option is warp, as in cpu(warp: 32)")                 \
  X(bad_warp_size, error, "warp size must be 32 or 64, found {}")                                  \
  X(agent_without_command, error, "agent '{}' has no command")                                     \
  X(unknown_placeholder, error, "unknown placeholder '{{{}}}' in the {} of agent '{}'")            \
  X(agent_home_path, error,                                                                        \
    "the {} of agent '{}' must name a path inside the agent's home (relative, no '..'), found "    \
    "'{}'")                                                                                        \
  /* kta check --compile */                                                                        \
  X(entry_does_not_compile, error, "the {} entry ({}) does not compile on the {} device: {}")      \
  X(entry_not_compiled, warning, "the {} entry ({}) was not compiled on the {} device: {}")        \
  /* notes */                                                                                      \
  X(note_previous_definition, note, "previous definition is here")                                 \
  X(note_declared_here, note, "'{}' is declared here")                                             \
  X(note_imported_here, note, "imported here")                                                     \
  X(note_search_path, note, "searched: {}")                                                        \
  X(note_visible_grid, note, "visible grid is here")                                               \
  X(note_first_error_of_file, note, "while loading task '{}'")                                     \
  X(note_compiler_output, note, "compiler output:\n{}")

#define KTA_LANG_MSG_ENUM(id, sev, text) id,
enum class Msg { KTA_LANG_MESSAGES(KTA_LANG_MSG_ENUM) };
#undef KTA_LANG_MSG_ENUM

enum class Severity;

// The fmt format string of a message.
std::string_view message_format(Msg id);
// The severity a message is reported with.
Severity message_severity(Msg id);
// The message's name, e.g. "unknown_param" (JSON output, tests).
std::string_view message_name(Msg id);

}  // namespace kta::lang
