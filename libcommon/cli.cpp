#include "cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <exception>
#include <iostream>
#include <limits>
#include <new>
#include <string_view>
#include <vector>

#include "count_option.hpp"
#include "diag.hpp"
#include "effective_options.hpp"
#include "gpu_options.hpp"
#include "heap.hpp"
#include "section_timing.hpp"
#include "version.hpp"

namespace sasskit {

std::string version_string() { return SASSKIT_VERSION; }

namespace {
// An allocation that fails where ToolApp::run cannot catch it (a static
// object, the set-up of the command line under a small ulimit -v) would end
// the tool through std::terminate with SIGABRT. It ends as run() ends it
// instead: one line and status 1. Any other escaped exception keeps the
// default ending (a bug: its message and SIGABRT).
std::terminate_handler g_default_terminate = nullptr;

[[noreturn]] void terminate_out_of_memory_cleanly() {
  try {
    if (const std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
#if defined(__GLIBC__)
    const char* name = program_invocation_short_name;
#else
    const char* name = "sasskit";
#endif
    constexpr char kMessage[] = ": out of memory\n";
    [[maybe_unused]] ssize_t n = write(STDERR_FILENO, name, std::strlen(name));
    n = write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    _exit(static_cast<int>(ExitCode::Failure));
  } catch (...) {
  }
  if (g_default_terminate) g_default_terminate();
  std::abort();
}

[[maybe_unused]] const bool g_terminate_set = (g_default_terminate = std::set_terminate(terminate_out_of_memory_cleanly), true);
}  // namespace

namespace {
// --version: "tool (sasskit) 0.1.0", then what the build was made from, as
// CMake found it when it configured the build (sasskit(7), SHARED OPTIONS).
std::string version_text(const std::string& tool) {
  return tool + " (sasskit) " + version_string() + "\ncommit " + SASSKIT_COMMIT + ", " + SASSKIT_BUILD_TYPE +
         " build\nlibraries: " + SASSKIT_LIBRARIES;
}
}  // namespace

namespace {
CLI::Validator number_check(std::function<bool(double)> ok, const std::string& wanted) {
  return CLI::Validator(
      [ok, wanted](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v) || !ok(v)) return "Value " + text + " is not " + wanted;
        return "";
      },
      "NUMBER");
}
}  // namespace

CLI::Validator number_in(double lo, double hi) {
  return number_check([lo, hi](double v) { return v >= lo && v <= hi; },
                      "a number in [" + CLI::detail::to_string(lo) + ", " + CLI::detail::to_string(hi) + "]");
}

CLI::Validator positive_number() {
  return number_check([](double v) { return v > 0 && v <= std::numeric_limits<double>::max(); },
                      "a positive number");
}

CLI::Validator count_in(uint64_t lo, uint64_t hi) {
  const std::string wanted = "a decimal count in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, wanted](std::string& text) -> std::string {
        uint64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        const bool leading_zero = text.size() > 1 && text[0] == '0';  // strtoull would read it as octal
        if (text.empty() || leading_zero || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
          return "Value " + text + " is not " + wanted;
        return "";
      },
      hi == UINT64_MAX ? (lo == 0 ? "COUNT" : "COUNT >= " + std::to_string(lo))
                       : "COUNT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");
}

void add_kernel_selection_options(CLI::App& app, KernelSelectionOptions& options) {
  const std::string group = "Kernel selection (as Nsight Compute's)";
  app.add_option("--kernels", options.ids, "Only these kernel ids, e.g. 1,3-5")->group(group);
  app.add_option("-k,--kernel-name", options.name,
                 "Only kernels of this name, or whose name regex:EXPR (POSIX extended) finds a match in")
      ->group(group);
  app.add_option("--kernel-name-base", options.name_base,
                 "The name -k matches: function (the function's own name), demangled or mangled")
      ->check(CLI::IsMember({"function", "demangled", "mangled"}))
      ->group(group)
      ->capture_default_str();
  app.add_option("-s,--launch-skip", options.launch_skip,
                 "Skip this many launches of the kernels that pass the id, name and plan filters")
      ->check(count_in())
      ->group(group);
  app.add_option("-c,--launch-count", options.launch_count,
                 "Keep at most this many launches of those kernels, after the skipped ones")
      ->check(count_in(1))
      ->group(group);
}

namespace {
// " [input] [more...]": the positional arguments, for the usage line.
std::string positional_usage(const CLI::App& app) {
  std::string out;
  for (const CLI::Option* opt : app.get_options())
    if (opt->get_positional()) out += " [" + opt->get_name() + "]";
  return out;
}
// Edits (insert, delete, replace one character) from `a` to `b`.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// "--kernl (did you mean --kernel?)" for the first --word of the command line
// that names no option but is close to one (at most 2 edits, and fewer than
// half its letters); empty when there is none.
std::string nearest_option_hint(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options())
    for (const std::string& name : opt->get_lnames()) names.push_back("--" + name);
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;
    if (!arg.starts_with("--")) continue;
    arg = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), arg) != names.end()) continue;
    const std::string* best = nullptr;
    size_t best_distance = 3;
    for (const std::string& name : names) {
      const size_t d = edit_distance(arg, name);
      if (d < best_distance && 2 * d < arg.size() - 2) best = &name, best_distance = d;
    }
    if (best) return std::string(arg) + " is not an option; did you mean " + *best + "?";
  }
  return "";
}

}  // namespace

ToolApp::ToolApp(std::string name, std::string description, int argc, char** argv, SharedOptions shared)
    : name_(std::move(name)), app_(std::move(description), name_), argc_(argc), argv_(argv) {
  set_program_name(name_);
  tune_heap();
  // A file-size limit (ulimit -f, common on clusters) would kill the tool with
  // SIGXFSZ, without a message and leaving its temporaries; ignored, the write
  // fails with EFBIG instead and takes the write-error path (one line, status
  // 4, nothing left behind).
  std::signal(SIGXFSZ, SIG_IGN);
  std::ios::sync_with_stdio(false);
  common_.argv.assign(argv, argv + argc);
  app_.set_version_flag("--version", version_text(name_));
  app_.set_config("--config", "",
                  "Read options from a CLI11 (TOML or INI) config file, or a bundled GPU model by name")
      ->transform(config_file_resolver())
      ->type_name("FILE|GPU");
  if (shared.threads)
    app_.add_option("--threads,-j", common_.threads, "Worker threads")
        ->check(count_in(1, 1024))
        ->capture_default_str();
  app_.add_flag("--quiet,-q", common_.quiet, "No warnings or progress on stderr");
  if (shared.force) app_.add_flag("--force,-f", common_.force, "Write a binary stream even to a terminal");
  if (shared.provenance)
    app_.add_flag("--no-provenance", common_.no_provenance,
                  "Leave this stage's command line out of the provenance it records (stream header, JSON)");
}

void ToolApp::keep_old_spelling(std::string old_name, std::string new_name, std::string why) {
  old_spellings_.push_back({std::move(old_name), std::move(new_name), std::move(why)});
}

std::vector<std::string> ToolApp::respelled_arguments(std::vector<const OldSpelling*>& used) const {
  std::vector<std::string> args(argv_, argv_ + argc_);
  for (size_t i = 1; i < args.size() && args[i] != "--"; ++i) {
    for (const OldSpelling& old : old_spellings_) {
      const std::string& name = old.old_name;
      std::string& arg = args[i];
      const bool is_short = name.size() == 2;
      if (arg == name) {
        arg = old.new_name;
      } else if (arg.starts_with(name) && (is_short || arg[name.size()] == '=')) {
        arg = old.new_name + "=" + arg.substr(name.size() + (is_short ? 0 : 1));
      } else {
        continue;
      }
      if (std::find(used.begin(), used.end(), &old) == used.end()) used.push_back(&old);
      break;
    }
  }
  return args;
}

int ToolApp::run(const std::function<void()>& body) {
  const OptionValues defaults = option_defaults(app_);
  std::vector<const OldSpelling*> old_spellings_used;
  std::vector<std::string> args = respelled_arguments(old_spellings_used);
  std::vector<char*> arg_pointers;
  for (std::string& arg : args) arg_pointers.push_back(arg.data());
  const int argc = static_cast<int>(arg_pointers.size());
  char** argv = arg_pointers.data();
  try {
    app_.parse(argc, argv);
    common_.effective_options = options_given(app_, defaults);
  } catch (const CLI::CallForHelp&) {
    complete_options();
    std::cout << app_.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    complete_options();
    std::cout << app_.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    std::cout << app_.version() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    complete_options();
    const std::string hint = nearest_option_hint(app_, argc, argv);
    std::cerr << name_ << ": " << printable(hint.empty() ? e.what() : hint) << "\n"
              << "usage: " << name_ << " [OPTIONS]" << positional_usage(app_)
              << " (run '" << name_ << " --help' for the options)\n";
    return static_cast<int>(ExitCode::Usage);
  }
  set_quiet(common_.quiet);
  for (const OldSpelling* old : old_spellings_used)
    warn("", old->old_name + " is the old spelling of " + old->new_name + ", kept for scripts: " + old->why);
  try {
    body();
  } catch (const Error& e) {
    print_error(e);
    return static_cast<int>(e.code());
  } catch (const CLI::Success&) {
    return 0;  // the body finished early on purpose, e.g. --dump-config
  } catch (const std::ios_base::failure& e) {
    std::cerr << name_ << ": read or write error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::Io);
  } catch (const std::bad_alloc&) {
    std::cerr << name_ << ": out of memory\n";
    return static_cast<int>(ExitCode::Failure);
  } catch (const std::exception& e) {
    std::cerr << name_ << ": internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::Internal);
  }
  if (section_timing_on()) std::cerr << section_timing_line(name_, section_totals(seconds_since_start(), process_cpu_seconds())) << "\n";
  return 0;
}

void ToolApp::complete_options() {
  for (const auto& complete : complete_options_) complete();
}

}  // namespace sasskit
