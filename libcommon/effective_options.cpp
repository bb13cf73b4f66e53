#include "effective_options.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <set>
#include <sstream>

#include "gpu_options.hpp"

namespace sasskit {

namespace {

// Options that cannot change what a tool computes: where it reads and
// writes, how fast and how loud, and what only prints and exits. --config
// is the model's file or an options file: what it sets is recorded instead.
const std::set<std::string> kNeverChangeResults = {"help",  "version",       "config", "threads", "quiet",
                                                   "force", "no-provenance", "output"};

bool may_change_results(const CLI::Option& opt) {
  const std::string name = opt.get_single_name();
  return !opt.get_positional() && !kNeverChangeResults.count(name) && !is_gpu_model_option(name);
}

bool is_flag(const CLI::Option& opt) { return opt.get_expected_min() == 0; }

// A number in its shortest exact form ("0.10", "1e-1" and ".1" are "0.1";
// "0x10" is "16"); other text as it is.
std::string canonical_item(const std::string& item) {
  if (item.empty() || std::isspace(static_cast<unsigned char>(item[0]))) return item;
  char* end = nullptr;
  const double v = std::strtod(item.c_str(), &end);
  if (*end != '\0') return item;
  char buf[64];
  const auto [last, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, last) : item;
}

// A value as parsed: its items canonical and joined by commas (CLI11 writes
// a list default as "[a,b]").
std::string canonical_value(std::string text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  std::string out, item;
  std::istringstream items(text);
  while (std::getline(items, item, ',')) out += (out.empty() ? "" : ",") + canonical_item(item);
  return out;
}

// The value of the variable an option is bound to, as CLI11 writes a
// default; empty when it is bound to none (or is a flag).
std::string bound_value(CLI::Option& opt) {
  const std::string kept = opt.get_default_str();
  opt.capture_default_str();
  const std::string value = opt.get_default_str();
  opt.default_str(kept);
  return value;
}

}  // namespace

OptionValues option_defaults(CLI::App& app) {
  OptionValues defaults;
  for (CLI::Option* opt : app.get_options())
    if (may_change_results(*opt) && !is_flag(*opt))
      defaults[opt->get_single_name()] = canonical_value(bound_value(*opt));
  return defaults;
}

OptionValues options_given(const CLI::App& app, const OptionValues& defaults) {
  OptionValues given;
  for (const CLI::Option* opt : app.get_options()) {
    if (!may_change_results(*opt) || opt->count() == 0) continue;
    const std::string name = opt->get_single_name();
    const std::vector<std::string> results = opt->reduced_results();
    if (is_flag(*opt)) {
      // A flag stores the value it sets ("false" for a !--no-x flag): in
      // effect when that is what it was given.
      if (!results.empty() && results.back() == opt->get_flag_value(name, "")) given[name] = "true";
      continue;
    }
    std::string joined;
    for (const std::string& r : results) joined += (joined.empty() ? "" : ",") + r;
    const std::string value = canonical_value(joined);
    const auto d = defaults.find(name);
    if (d == defaults.end() || d->second != value) given[name] = value;
  }
  return given;
}

}  // namespace sasskit
