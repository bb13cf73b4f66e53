// The nsys sqlite export (formats/PROFILES.md, "nsys sqlite"): table
// CUPTI_ACTIVITY_KIND_KERNEL, one row per launch with start and end in ns,
// grid and block sizes, and its names as ids into StringIds (schema as
// documented in the Nsight Systems User Guide, "SQLite Schema Reference").
#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>

#include "formats/profile.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::profile {

namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";  // the 16-byte header, NUL included

// Kernels in launch order; the demangled name as nsys stats prints it.
constexpr const char* kKernelQuery =
    "SELECT k.start, k.end, k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ, s.value "
    "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN StringIds AS s ON s.id = k.demangledName "
    "ORDER BY k.start, k.correlationId";

struct DbClose {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct StmtFinalize {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};

uint64_t count_column(sqlite3_stmt* s, int column, const std::string& path, const char* what) {
  const sqlite3_int64 v = sqlite3_column_int64(s, column);
  if (sqlite3_column_type(s, column) != SQLITE_INTEGER || v < 0)
    fail_input(path, std::string("a kernel's ") + what + " is not a non-negative integer");
  return static_cast<uint64_t>(v);
}

// The product of three sizes (grid or block dimensions); bad input if it
// does not fit in 64 bits rather than a wrapped count.
uint64_t volume(sqlite3_stmt* s, int first_column, const std::string& path, const char* const names[3]) {
  uint64_t v = 1;
  for (int i = 0; i < 3; ++i)
    if (__builtin_mul_overflow(v, count_column(s, first_column + i, path, names[i]), &v))
      fail_input(path, std::string("a kernel's ") + names[0] + " x " + names[1] + " x " + names[2] +
                           " does not fit in 64 bits");
  return v;
}

// An export is untrusted: opened read-only and immutable (no journal or WAL
// files beside it, whatever its journal mode), with text and blobs of at
// most kMaxValueBytes, and at most kStepsPerByte virtual-machine steps per
// byte of file (a real export needs a few), so a crafted one cannot run long
// or grow large.
constexpr int kMaxValueBytes = 1 << 20;
constexpr uint64_t kStepsPerByte = 1000, kMinSteps = 100'000'000;
constexpr int kStepsPerCall = 10000;

// "file:" URI of a path, every byte outside [A-Za-z0-9/._~-] percent-encoded.
std::string immutable_uri(const std::string& path) {
  static const char hex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '~' || c == '-') {
      uri.push_back(static_cast<char>(c));
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri + "?immutable=1";
}

struct StepBudget {
  uint64_t calls_left;
  bool exhausted = false;
};
int spend_steps(void* budget) {
  auto* b = static_cast<StepBudget*>(budget);
  if (b->calls_left == 0) return b->exhausted = true;  // non-zero interrupts the query
  --b->calls_left;
  return 0;
}

// The tables read must be tables: a view runs its own query.
void require_tables(sqlite3* db, const std::string& path) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT name, type FROM sqlite_master WHERE name IN "
                             "('CUPTI_ACTIVITY_KIND_KERNEL', 'StringIds')", -1, &raw, nullptr) != SQLITE_OK)
    fail_input(path, std::string("not an sqlite database: ") + sqlite3_errmsg(db));
  std::unique_ptr<sqlite3_stmt, StmtFinalize> stmt(raw);
  while (sqlite3_step(stmt.get()) == SQLITE_ROW) {
    const auto* name = reinterpret_cast<const char*>(sqlite3_column_text(stmt.get(), 0));
    const auto* type = reinterpret_cast<const char*>(sqlite3_column_text(stmt.get(), 1));
    if (!type || std::string(type) != "table")
      fail_input(path, std::string(name ? name : "?") + " is a " + (type ? type : "?") +
                           ", not a table: an nsys export holds tables");
  }
}

}  // namespace

bool is_sqlite_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;  // a pipe is read once, by the text reader
  std::ifstream in(path, std::ios::binary);
  char head[sizeof kSqliteMagic] = {};
  return in.read(head, sizeof head) && std::equal(head, head + sizeof head, kSqliteMagic);
}

Profile read_nsys_sqlite(const std::string& path) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(immutable_uri(path).c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  std::unique_ptr<sqlite3, DbClose> db(raw);
  if (rc != SQLITE_OK) fail_io(path, std::string("cannot open as sqlite: ") + sqlite3_errstr(rc));
  sqlite3_limit(db.get(), SQLITE_LIMIT_LENGTH, kMaxValueBytes);
  std::error_code ec;
  const uint64_t bytes = std::filesystem::file_size(path, ec);
  StepBudget budget{std::max(kMinSteps, kStepsPerByte * (ec ? 0 : bytes)) / kStepsPerCall};
  sqlite3_progress_handler(db.get(), kStepsPerCall, spend_steps, &budget);
  require_tables(db.get(), path);
  // Every kernel is a row of the file: more rows than it has bytes means a
  // join that multiplies them (StringIds with repeated ids).
  const uint64_t max_rows = ec ? 0 : bytes;
  sqlite3_stmt* raw_stmt = nullptr;
  if (sqlite3_prepare_v2(db.get(), kKernelQuery, -1, &raw_stmt, nullptr) != SQLITE_OK)
    fail_input(path, std::string("not an nsys sqlite export with kernel activity (") + sqlite3_errmsg(db.get()) + ")");
  std::unique_ptr<sqlite3_stmt, StmtFinalize> stmt(raw_stmt);
  Profile p;
  p.source = path;
  p.layout = Layout::NsysSqlite;
  p.time_from = "end - start";
  int step;
  while ((step = sqlite3_step(stmt.get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt.get();
    Kernel k;
    k.id = p.kernels.size() + 1;
    const uint64_t start = count_column(s, 0, path, "start"), end = count_column(s, 1, path, "end");
    if (end < start) fail_input(path, "kernel " + std::to_string(*k.id) + " ends before it starts");
    k.time_ns = static_cast<double>(end - start);
    static const char* const grid[3] = {"gridX", "gridY", "gridZ"};
    static const char* const block[3] = {"blockX", "blockY", "blockZ"};
    k.ctas = volume(s, 2, path, grid);
    k.threads_per_cta = volume(s, 5, path, block);
    const unsigned char* name = sqlite3_column_text(s, 8);
    if (!name) fail_input(path, "kernel " + std::to_string(*k.id) + " has no name in StringIds");
    k.name.assign(reinterpret_cast<const char*>(name), static_cast<size_t>(sqlite3_column_bytes(s, 8)));
    if (k.name.find('\0') != std::string::npos)
      fail_input(path, "kernel " + std::to_string(*k.id) + "'s name holds a NUL byte");
    p.kernels.push_back(std::move(k));
    if (p.kernels.size() > max_rows)
      fail_input(path, "more kernel rows than the file has bytes: StringIds repeats an id");
  }
  if (budget.exhausted)
    fail_input(path, "reading kernel activity takes too long for a file of this size (is it an nsys export?)");
  if (step != SQLITE_DONE) fail_input(path, std::string("reading kernel activity: ") + sqlite3_errmsg(db.get()));
  return p;
}

}  // namespace sasskit::profile
