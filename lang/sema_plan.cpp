// Plans: task paths (files, folders, globs) loaded and checked, agents, device, held-out switch,
// repeat count, output folder and timing override.
#include <fmt/format.h>

#include "lang/sema.h"

namespace kta::lang {

namespace fs = std::filesystem;

namespace {

bool wildcard_match(std::string_view pat, std::string_view s) {
  size_t p = 0, i = 0, star = std::string_view::npos, mark = 0;
  while (i < s.size()) {
    if (p < pat.size() && (pat[p] == '?' || pat[p] == s[i])) {
      ++p, ++i;
    } else if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = i;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

bool has_wildcard(const std::string& s) { return s.find_first_of("*?") != std::string::npos; }

void glob_from(const fs::path& base, std::vector<std::string>::const_iterator part,
               std::vector<std::string>::const_iterator end, std::vector<fs::path>& out,
               int depth) {
  std::error_code ec;
  if (part == end) {
    if (fs::exists(base, ec)) out.push_back(base);
    return;
  }
  if (depth > 32) return;
  if (*part == "**") {
    glob_from(base, part + 1, end, out, depth + 1);
    for (const auto& entry : fs::directory_iterator(base, ec))
      if (entry.is_directory(ec) && entry.path().filename().string()[0] != '.')
        glob_from(entry.path(), part, end, out, depth + 1);
    return;
  }
  if (!has_wildcard(*part)) {
    glob_from(base / *part, part + 1, end, out, depth + 1);
    return;
  }
  std::vector<fs::path> matches;
  for (const auto& entry : fs::directory_iterator(base, ec)) {
    std::string name = entry.path().filename().string();
    if (name[0] != '.' && wildcard_match(*part, name)) matches.push_back(entry.path());
  }
  std::sort(matches.begin(), matches.end());
  for (const auto& m : matches) glob_from(m, part + 1, end, out, depth + 1);
}

}  // namespace

std::vector<fs::path> glob_paths(const fs::path& pattern) {
  std::vector<std::string> parts;
  for (const auto& p : pattern.relative_path()) parts.push_back(p.string());
  std::vector<fs::path> out;
  glob_from(pattern.root_path().empty() ? fs::path(".") : pattern.root_path(), parts.begin(),
            parts.end(), out, 0);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<fs::path> task_file_of(const fs::path& p, DiagnosticEngine& d, SourceRange where) {
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return p;
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(p, ec))
    if (entry.path().extension() == ".kta" && entry.is_regular_file(ec))
      found.push_back(entry.path());
  if (found.size() == 1) return found[0];
  if (found.empty())
    d.report(where, Msg::folder_without_kta, p.string());
  else
    d.report(where, Msg::folder_with_many_kta, p.string(), found.size());
  return std::nullopt;
}

namespace {

void load_tasks(Sema& sema, const ast::Setting& s, const fs::path& dir, model::Plan& plan) {
  DiagnosticEngine& d = sema.diags();
  std::set<fs::path> seen;
  for (const model::Task& t : plan.tasks) seen.insert(t.file);
  for (const ast::ExprPtr& v : s.values) {
    const auto* str = std::get_if<ast::StringLit>(&v->node);
    if (!str) {
      d.report(v->where, Msg::type_mismatch, "a task path", "a string", "an expression");
      continue;
    }
    fs::path pattern = (dir / str->value).lexically_normal();
    std::vector<fs::path> matches;
    std::error_code ec;
    if (has_wildcard(str->value))
      matches = glob_paths(pattern);
    else if (fs::exists(pattern, ec))
      matches.push_back(pattern);
    if (matches.empty()) {
      d.report(v->where, Msg::task_path_not_found, str->value);
      continue;
    }
    for (const fs::path& match : matches) {
      if (has_wildcard(str->value) && !fs::is_directory(match, ec) && match.extension() != ".kta")
        continue;
      auto file = task_file_of(match, d, v->where);
      if (!file) continue;
      fs::path abs = fs::absolute(*file, ec).lexically_normal();
      if (!seen.insert(abs).second) continue;
      Module* m = sema.loader.load(*file, v->where);
      if (!m) continue;
      check_all_modules(sema);
      size_t found = 0;
      for (const ast::Decl& decl : m->ast.decls) {
        if (const auto* t = std::get_if<ast::TaskDecl>(&decl)) {
          ++found;
          if (auto task = lower_task(sema, *m, *t)) plan.tasks.push_back(std::move(*task));
        }
      }
      if (found == 0) d.report(v->where, Msg::nothing_to_load, file->string());
    }
  }
}

bool device_name_ok(const std::string& text) {
  if (text == "auto" || text == "cpu" || text == "hip") return true;
  return text.starts_with("hip:") && text.size() > 4 &&
         text.find_first_not_of("0123456789", 4) == std::string::npos;
}

// `warp: 32` of `device cpu(warp: 32)`: the device's only option.
void device_options(Sema& sema, Module& m, const ast::Call& call, model::Plan& plan) {
  for (const ast::Arg& a : call.args) {
    if (a.name != "warp") {
      // A positional option has no name: the message shows what was written.
      SourceRange at = a.name.empty() ? a.value->where : a.name_where;
      const std::string& text = sema.diags().sources().file(at.file).text;
      sema.diags().report(at, Msg::bad_device_option, text.substr(at.begin, at.end - at.begin));
      continue;
    }
    auto v = sema.eval_const(*a.value, m, "warp");
    if (!v) continue;
    if (!std::holds_alternative<int64_t>(*v) ||
        (std::get<int64_t>(*v) != 32 && std::get<int64_t>(*v) != 64)) {
      sema.diags().report(a.value->where, Msg::bad_warp_size, value_text(*v));
      continue;
    }
    plan.warp_size = int(std::get<int64_t>(*v));
  }
}

// `device auto | cpu | hip | hip:N`, optionally with options: `device cpu(warp: 32)`.
void plan_device(Sema& sema, Module& m, const ast::Setting& s, model::Plan& plan) {
  const ast::Expr* v = sema.single_value(s);
  if (!v) return;
  std::string text;
  const auto* call = std::get_if<ast::Call>(&v->node);
  if (const auto* n = std::get_if<ast::NameRef>(&v->node))
    text = n->name;
  else if (const auto* str = std::get_if<ast::StringLit>(&v->node))
    text = str->value;
  else if (call)
    text = call->callee;
  if (!device_name_ok(text)) {
    sema.diags().report(call ? call->callee_where : v->where, Msg::bad_device, text);
    return;
  }
  plan.device = text;
  if (call) device_options(sema, m, *call, plan);
}

// `sandbox auto | on | off`.
void plan_sandbox(Sema& sema, const ast::Setting& s, model::Plan& plan) {
  const ast::Expr* v = sema.single_value(s);
  const auto* n = v ? std::get_if<ast::NameRef>(&v->node) : nullptr;
  if (n && (n->name == "auto" || n->name == "on" || n->name == "off"))
    plan.sandbox = n->name;
  else if (v)
    sema.diags().report(v->where, Msg::type_mismatch, "'sandbox'", "auto, on or off",
                        n ? fmt::format("'{}'", n->name) : std::string("an expression"));
}

// One setting of a known key into the plan (`tasks` and `agent` are handled by the caller).
void plan_setting(Sema& sema, Module& m, const ast::Setting& s, const fs::path& dir,
                  model::Plan& plan) {
  if (s.key == "device") {
    plan_device(sema, m, s, plan);
  } else if (s.key == "heldout") {
    if (auto b = sema.bool_value(s, m)) plan.heldout = *b;
  } else if (s.key == "repeat") {
    if (auto r = sema.int_value(s, m, 1)) plan.repeat = int(std::min<int64_t>(*r, 1 << 20));
  } else if (s.key == "output") {
    if (auto o = sema.string_value(s, m)) plan.output = (dir / *o).lexically_normal();
  } else if (s.key == "timing") {
    if (auto t = sema.timing_of(s, m)) plan.timing = *t;
  } else if (s.key == "network") {
    if (auto b = sema.bool_value(s, m)) plan.network = *b;
  } else if (s.key == "sandbox") {
    plan_sandbox(sema, s, plan);
  }
}

}  // namespace

std::optional<model::Plan> lower_plan(Sema& sema, Module& m, const ast::PlanDecl& decl) {
  DiagnosticEngine& d = sema.diags();
  size_t before = d.error_count();
  model::Plan plan;
  plan.name = decl.name;
  plan.file = m.path;
  fs::path dir = m.path.parent_path();
  plan.output = dir / "runs" / decl.name;
  static const std::vector<std::string> kKeys = {"tasks",  "agent",  "device",  "heldout", "repeat",
                                                 "output", "timing", "sandbox", "network"};
  std::map<std::string, const ast::Setting*> seen;
  bool has_tasks = false, has_agent = false;
  for (const ast::Setting& s : decl.items) {
    if (std::find(kKeys.begin(), kKeys.end(), s.key) == kKeys.end()) {
      std::string hint = closest_match(s.key, kKeys);
      std::string where = fmt::format("plan '{}'", decl.name);
      if (hint.empty())
        d.report(s.key_where, Msg::unknown_setting, s.key, where);
      else
        d.report(s.key_where, Msg::unknown_setting_hint, s.key, where, hint);
      continue;
    }
    bool repeatable = s.key == "tasks" || s.key == "agent";
    if (auto [it, fresh] = seen.emplace(s.key, &s); !fresh && !repeatable) {
      d.report(s.key_where, Msg::duplicate_setting, s.key);
      d.note(it->second->where, Msg::note_previous_definition);
      continue;
    }
    if (s.key == "tasks") {
      has_tasks = true;
      load_tasks(sema, s, dir, plan);
    } else if (s.key == "agent") {
      has_agent = true;
      if (const ast::Expr* v = sema.single_value(s))
        if (auto use = sema.agent_use(*v, m)) plan.agents.push_back(std::move(*use));
    } else {
      plan_setting(sema, m, s, dir, plan);
    }
  }
  if (!has_tasks) d.report(decl.name_where, Msg::plan_no_tasks, decl.name);
  if (!has_agent) d.report(decl.name_where, Msg::plan_no_agent, decl.name);
  if (d.error_count() != before) return std::nullopt;
  return plan;
}

}  // namespace kta::lang
