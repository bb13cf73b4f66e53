#include "kernel_name.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace sasskit {

std::string demangle_kernel_name(std::string_view name) {
  const std::string mangled(name);
  if (mangled.rfind("_Z", 0) != 0) return mangled;
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !out) return mangled;
  return out.get();
}

std::string_view without_correlation_id(std::string_view name) {
  if (name.empty() || name.back() != ']') return name;
  const auto open = name.rfind(" [");
  if (open == std::string_view::npos) return name;
  for (auto c : name.substr(open + 2, name.size() - open - 3))
    if (c < '0' || c > '9') return name;
  return name.substr(0, open);
}

namespace {

// The part of `name` before its top-level parameter list, i.e. before the first
// '(' that is not inside template brackets.
std::string_view without_parameters(std::string_view name) {
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    else if (name[i] == '>' && depth > 0) --depth;
    else if (name[i] == '(' && depth == 0) return name.substr(0, i);
  }
  return name;
}

// Removes every <...> group, nested ones included.
std::string without_template_arguments(std::string_view name) {
  std::string out;
  int depth = 0;
  for (char c : name) {
    if (c == '<') ++depth;
    else if (c == '>' && depth > 0) --depth;
    else if (depth == 0) out += c;
  }
  return out;
}

}  // namespace

std::string base_kernel_name(std::string_view name) {
  const std::string demangled = demangle_kernel_name(without_correlation_id(name));
  std::string plain = without_template_arguments(without_parameters(demangled));
  while (!plain.empty() && plain.back() == ' ') plain.pop_back();
  const auto scope = plain.rfind("::");
  if (scope != std::string::npos) plain.erase(0, scope + 2);
  const auto space = plain.rfind(' ');  // a return type printed before the name
  if (space != std::string::npos) plain.erase(0, space + 1);
  return plain;
}

}  // namespace sasskit
