// Agents: a declaration plus the arguments of one use become a command template, environment,
// version check and timeout for the engine.
#include <fmt/format.h>

#include <filesystem>

#include "lang/placeholders.h"
#include "lang/sema.h"

namespace kta::lang {
namespace {

std::vector<std::string> strings_of(Sema& sema, const ast::Setting& s, bool report) {
  std::vector<std::string> out;
  for (const ast::ExprPtr& v : s.values) {
    if (const auto* str = std::get_if<ast::StringLit>(&v->node))
      out.push_back(str->value);
    else if (report)
      sema.diags().report(v->where, Msg::type_mismatch, fmt::format("a part of '{}'", s.key),
                          "a string", "an expression");
  }
  return out;
}

// `{name}` placeholders must be known: the builtin ones (lang/placeholders.h) or a parameter.
// The engine fills them (engine/agents/command_line.cpp) with the same scanner.
void check_placeholders(Sema& sema, const ast::CallableDecl& decl, const ast::Setting& s) {
  const auto& builtin = builtin_placeholders();
  for (const ast::ExprPtr& v : s.values) {
    const auto* str = std::get_if<ast::StringLit>(&v->node);
    if (!str) continue;
    for (const std::string& name : placeholder_names(str->value)) {
      bool known = std::find(builtin.begin(), builtin.end(), name) != builtin.end();
      for (const ast::ParamSig& param : decl.params) known |= param.name == name;
      if (!known) sema.diags().report(v->where, Msg::unknown_placeholder, name, s.key, decl.name);
    }
  }
}

// A path inside the agent's home: relative, never climbing out of it.
bool inside_home(const std::string& path) {
  std::filesystem::path p(path);
  if (path.empty() || p.is_absolute()) return false;
  for (const auto& part : p)
    if (part == "..") return false;
  return true;
}

// `file "PATH", """CONTENT"""`.
void agent_file(Sema& sema, const ast::CallableDecl& decl, const ast::Setting& s, bool report,
                model::AgentDecl& out) {
  std::vector<std::string> parts = strings_of(sema, s, report);
  if (parts.size() != 2 || s.values.size() != 2) {
    if (report)
      sema.diags().report(s.key_where, Msg::type_mismatch, "'file'",
                          "'file \"PATH\", \"\"\"CONTENT\"\"\"'", "something else");
    return;
  }
  if (report) {
    check_placeholders(sema, decl, s);
    if (!inside_home(parts[0]))
      sema.diags().report(s.values[0]->where, Msg::agent_home_path, "file", decl.name, parts[0]);
  }
  out.files.push_back({parts[0], parts[1]});
}

// `login "PATH", ...`.
void agent_logins(Sema& sema, const ast::CallableDecl& decl, const ast::Setting& s, bool report,
                  model::AgentDecl& out) {
  std::vector<std::string> paths = strings_of(sema, s, report);
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!inside_home(paths[i]) || !placeholders_in(paths[i]).empty()) {
      if (report)
        sema.diags().report(s.values[i]->where, Msg::agent_home_path, "login", decl.name, paths[i]);
      continue;
    }
    out.logins.push_back(paths[i]);
  }
}

// `env NAME = "value"`.
void agent_env(Sema& sema, const ast::CallableDecl& decl, const ast::Setting& s, bool report,
               model::AgentDecl& out) {
  const ast::Expr* v = s.values.size() == 1 ? s.values[0].get() : nullptr;
  const auto* str = v ? std::get_if<ast::StringLit>(&v->node) : nullptr;
  if (s.subject.empty() || !str) {
    if (report)
      sema.diags().report(s.key_where, Msg::type_mismatch, "'env'", "'env NAME = \"value\"'",
                          "something else");
    return;
  }
  if (report) check_placeholders(sema, decl, s);
  out.env[s.subject] = str->value;
}

// `timeout DURATION` or `grace DURATION`: a positive duration, which may use the agent's params
// (bound to this use's `args`).
void agent_duration(Sema& sema, Module& m, const ast::CallableDecl& decl, const ast::Setting& s,
                    const std::map<std::string, model::Value>& args, model::AgentDecl& out) {
  DiagnosticEngine& d = sema.diags();
  const ast::Expr* v = sema.single_value(s);
  if (!v) return;
  Scope scope{&m, {}, false};
  for (const ast::ParamSig& p : decl.params)
    scope.names[p.name] = p.type == "duration" ? Ty::duration : Ty::any;
  size_t errs = d.error_count();
  Ty t = sema.check_expr(*v, scope);
  if (d.error_count() != errs) return;
  if (t != Ty::duration && t != Ty::any) {
    d.report(v->where, Msg::type_mismatch, fmt::format("'{}'", s.key), "a duration", type_name(t));
    return;
  }
  NameLookup lookup = [&](const std::string& name) -> std::optional<model::Value> {
    if (auto it = args.find(name); it != args.end()) return it->second;
    auto r = sema.resolve(m, name, v->where, false);
    if (r)
      if (const auto* c = std::get_if<ast::ConstDecl>(r->decl))
        return sema.const_value(*r->module, *c);
    return std::nullopt;
  };
  try {
    model::Value tv = evaluate(*v, lookup);
    int64_t& target = s.key == "grace" ? out.grace_ns : out.timeout_ns;
    if (std::holds_alternative<int64_t>(tv) && std::get<int64_t>(tv) > 0)
      target = std::get<int64_t>(tv);
    else
      d.report(v->where, Msg::value_out_of_range, fmt::format("'{}'", s.key), "a positive duration",
               value_text(tv));
  } catch (const EvalError& e) {
    d.report(v->where, Msg::eval_error, s.key, e.what());
  }
}

}  // namespace

std::optional<model::AgentDecl> lower_agent(Sema& sema, Module& m, const ast::CallableDecl& decl,
                                            const std::map<std::string, model::Value>& args,
                                            bool report) {
  DiagnosticEngine& d = sema.diags();
  size_t before = d.error_count();
  model::AgentDecl out;
  out.name = m.name.find(".kta") == std::string::npos ? m.name + "." + decl.name : decl.name;
  out.builtin = decl.builtin;
  if (decl.builtin) return out;
  static const std::vector<std::string> kKeys = {"command", "check", "env",   "timeout",
                                                 "grace",   "file",  "login", "key"};
  bool has_command = false;
  for (const ast::Setting& s : decl.body) {
    if (std::find(kKeys.begin(), kKeys.end(), s.key) == kKeys.end()) {
      if (!report) continue;
      std::string hint = closest_match(s.key, kKeys);
      std::string where = fmt::format("agent '{}'", decl.name);
      if (hint.empty())
        d.report(s.key_where, Msg::unknown_setting, s.key, where);
      else
        d.report(s.key_where, Msg::unknown_setting_hint, s.key, where, hint);
      continue;
    }
    if (s.key == "command" || s.key == "check" || s.key == "key") {
      if (report) check_placeholders(sema, decl, s);
      (s.key == "command" ? out.command
       : s.key == "check" ? out.check
                          : out.keys) = strings_of(sema, s, report);
      has_command |= s.key == "command";
    } else if (s.key == "env") {
      agent_env(sema, decl, s, report, out);
    } else if (s.key == "file") {
      agent_file(sema, decl, s, report, out);
    } else if (s.key == "login") {
      agent_logins(sema, decl, s, report, out);
    } else {
      agent_duration(sema, m, decl, s, args, out);
    }
  }
  if (!has_command && report) d.report(decl.name_where, Msg::agent_without_command, decl.name);
  if (d.error_count() != before) return std::nullopt;
  return out;
}

std::optional<model::AgentUse> Sema::agent_use(const ast::Expr& e, Module& from) {
  const auto* call = std::get_if<ast::Call>(&e.node);
  ast::Call bare;
  if (!call) {
    const auto* name = std::get_if<ast::NameRef>(&e.node);
    if (!name) {
      diags().report(e.where, Msg::type_mismatch, "'agent'",
                     "an agent such as std.agents.replay(dir: \"solutions\")", "an expression");
      return std::nullopt;
    }
    bare.callee = name->name;
    bare.callee_where = e.where;
    call = &bare;
  }
  auto decl = callable(*call, from, "agent");
  if (!decl) return std::nullopt;
  auto args = bind_call(*call, from, *decl->first, *decl->second);
  if (!args) return std::nullopt;
  auto agent = lower_agent(*this, *decl->second, *decl->first, *args, false);
  if (!agent) return std::nullopt;
  return model::AgentUse{std::move(*agent), std::move(*args)};
}

}  // namespace kta::lang
