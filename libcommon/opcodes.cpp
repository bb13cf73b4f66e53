#include "libcommon/opcodes.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "libcommon/diag.hpp"
#include "libcommon/gpu_options.hpp"

namespace sasskit {

namespace {

constexpr std::pair<MemSpace, const char*> kSpaceNames[] = {
    {MemSpace::None, "-"},         {MemSpace::Global, "global"},     {MemSpace::Local, "local"},
    {MemSpace::Shared, "shared"},  {MemSpace::Constant, "constant"}, {MemSpace::Texture, "texture"},
    {MemSpace::Generic, "generic"}};

constexpr int kMaxIncludeDepth = 8;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);) out.push_back(item);
  return out;
}

// Rows keyed "BASE" or "BASE.MODIFIER", in file order (later files and rows win).
using Rows = std::map<std::string, OpcodeInfo>;

OpcodeInfo parse_row(const std::vector<std::string>& cols, const std::string& where) {
  OpcodeInfo info;
  if (!unit_from_name(cols[1], info.unit)) fail_input(where, "unknown unit '" + cols[1] + "'");
  bool space_ok = false;
  for (const auto& [space, name] : kSpaceNames) {
    if (cols[2] == name) info.space = space, space_ok = true;
  }
  if (!space_ok) fail_input(where, "unknown memory space '" + cols[2] + "'");
  if (cols[3] == "-") return info;
  const std::pair<const char*, bool OpcodeInfo::*> flags[] = {
      {"load", &OpcodeInfo::is_load},     {"store", &OpcodeInfo::is_store},
      {"atomic", &OpcodeInfo::is_atomic}, {"barrier", &OpcodeInfo::is_barrier},
      {"branch", &OpcodeInfo::is_branch}, {"exit", &OpcodeInfo::is_exit},
      {"async", &OpcodeInfo::is_async},   {"mma-wait", &OpcodeInfo::is_mma_wait},
      {"copy-group", &OpcodeInfo::is_copy_group}, {"copy-wait", &OpcodeInfo::is_copy_wait}};
  for (const auto& flag : split(cols[3], ',')) {
    bool found = false;
    for (const auto& [name, member] : flags) {
      if (flag == name) info.*member = true, found = true;
    }
    if (!found) fail_input(where, "unknown flag '" + flag +
                                      "' (load store atomic barrier branch exit async mma-wait copy-group copy-wait)");
  }
  return info;
}

void load_rows(const std::string& path, Rows& rows, int depth) {
  if (depth > kMaxIncludeDepth) fail_input(path, "includes nest too deeply (a cycle?)");
  std::ifstream in(path);
  if (!in) fail_io(path, "cannot open opcode table");
  uint64_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const auto cols = split(line, '\t');
    const std::string where = location(path, line_no);
    if (cols.size() == 2 && cols[0] == "include") {
      load_rows((std::filesystem::path(path).parent_path() / cols[1]).string(), rows, depth + 1);
      continue;
    }
    if (cols.size() != 4) fail_input(where, "expected 4 tab-separated columns: opcode unit space flags");
    rows[cols[0]] = parse_row(cols, where);
  }
  if (in.bad()) fail_io(path, "read error");
}

}  // namespace

const char* mem_space_name(MemSpace s) {
  for (const auto& [space, name] : kSpaceNames) {
    if (space == s) return s == MemSpace::None ? "none" : name;
  }
  return "?";
}

struct OpcodeTable::Impl {
  struct Rule {
    std::string modifier;  // empty: the base row
    OpcodeInfo info;
  };
  std::unordered_map<std::string, std::vector<Rule>> rules;  // by base name, modifier rows first

  mutable std::shared_mutex mutex;
  mutable std::unordered_map<std::string, OpcodeInfo> cache;  // by full opcode
  mutable std::unordered_set<std::string> warned;             // unknown base names

  OpcodeInfo lookup(std::string_view opcode) const {
    const auto dot = opcode.find('.');
    const auto it = rules.find(std::string(opcode.substr(0, dot)));
    if (it == rules.end()) return fallback();
    const std::string modifiers = dot == std::string_view::npos ? "" : std::string(opcode.substr(dot)) + ".";
    for (const Rule& rule : it->second) {
      if (rule.modifier.empty() || modifiers.find("." + rule.modifier + ".") != std::string::npos) {
        return rule.info;
      }
    }
    return fallback();
  }
};

OpcodeTable::OpcodeTable(const std::string& tsv_path) : path_(tsv_path), impl_(std::make_unique<Impl>()) {
  Rows rows;
  load_rows(tsv_path, rows, 0);
  for (const auto& [key, info] : rows) {
    const auto dot = key.find('.');
    auto& list = impl_->rules[key.substr(0, dot)];
    if (dot == std::string::npos) {
      list.push_back({"", info});
    } else {
      list.insert(list.begin(), {key.substr(dot + 1), info});
    }
  }
}

OpcodeTable::~OpcodeTable() = default;

OpcodeInfo OpcodeTable::fallback() {
  OpcodeInfo info;
  info.known = false;
  return info;
}

OpcodeInfo OpcodeTable::classify(std::string_view opcode) const {
  {
    std::shared_lock lock(impl_->mutex);
    const auto it = impl_->cache.find(std::string(opcode));
    if (it != impl_->cache.end()) return it->second;
  }
  const OpcodeInfo info = impl_->lookup(opcode);
  std::unique_lock lock(impl_->mutex);
  impl_->cache.emplace(std::string(opcode), info);
  const std::string base(opcode.substr(0, opcode.find('.')));
  if (!info.known && impl_->warned.insert(base).second) {
    warn(path_, "unknown opcode '" + base + "': simulated on the INT unit with no memory access");
  }
  return info;
}

std::string opcode_table_path(uint32_t binary_version) {
  namespace fs = std::filesystem;
  std::map<uint32_t, std::string> tables;  // first directory wins
  for (const auto& dir : config_search_dirs()) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(dir) / "opcodes", ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("sm_", 0) != 0 || entry.path().extension() != ".tsv") continue;
      try {
        tables.emplace(static_cast<uint32_t>(std::stoul(name.substr(3))), entry.path().string());
      } catch (const std::exception&) {
        continue;  // not sm_<number>.tsv
      }
    }
  }
  if (tables.empty()) fail("no opcode tables (opcodes/sm_<N>.tsv) found; set SASSKIT_CONFIG_PATH");
  auto it = tables.upper_bound(binary_version);
  if (it == tables.begin()) {
    warn("",
         "no opcode table for binary version " + std::to_string(binary_version) + "; using " + it->second);
    return it->second;
  }
  return std::prev(it)->second;
}

const OpcodeTable& OpcodeTable::for_version(uint32_t binary_version) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<OpcodeTable>> by_path;
  static std::map<uint32_t, const OpcodeTable*> by_version;
  std::lock_guard lock(mutex);
  if (const auto it = by_version.find(binary_version); it != by_version.end()) return *it->second;
  const std::string path = opcode_table_path(binary_version);
  auto& table = by_path[path];
  if (!table) table = std::make_unique<OpcodeTable>(path);
  by_version[binary_version] = table.get();
  return *table;
}

}  // namespace sasskit
