// libFuzzer target for the nsys sqlite export reader (formats/profile_sqlite.cpp)
// and what kernel-select and stall-report make of its profile. SQLite opens
// a file, so each input becomes a database file first, in one of two ways:
//   - input starting with SQLite's 16-byte magic: the file's bytes as given
//     (damaged pages, forged schemas);
//   - any other input: SQL run into an empty database (the seeds create the
//     nsys tables), so mutations reach the reader as odd values: text or NULL
//     in integer columns, negative or huge sizes, missing names.
// The SQL runs under an authorizer that allows only creating tables and
// writing and reading rows (no ATTACH, PRAGMA or VACUUM INTO, which could
// touch other files), with a step budget and a length limit.
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "formats/profile.hpp"
#include "formats/reference_stats.hpp"
#include "fuzz_input.hpp"
#include "read_profile.hpp"

namespace {

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

int allow_rows_only(void*, int action, const char*, const char*, const char*, const char*) {
  switch (action) {
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_INDEX:
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
    case SQLITE_READ:
    case SQLITE_SELECT:
    case SQLITE_FUNCTION:
    case SQLITE_TRANSACTION:
      return SQLITE_OK;
    default:
      return SQLITE_DENY;
  }
}

int stop_after_budget(void* steps) { return ++*static_cast<int*>(steps) > 1000; }

void run_sql(const std::string& path, std::string_view sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) == SQLITE_OK) {
    // No journal and no fsync: the file is thrown away after one input.
    sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;", nullptr, nullptr, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 16);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_set_authorizer(db, allow_rows_only, nullptr);
    int steps = 0;
    sqlite3_progress_handler(db, 1000, stop_after_budget, &steps);
    sqlite3_exec(db, std::string(sql).c_str(), nullptr, nullptr, nullptr);
  }
  sqlite3_close(db);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("sasskit-sqlite-fuzz-" + std::to_string(::getpid()) + ".sqlite"))
          .string();
  std::filesystem::remove(path);
  const std::string_view input = sasskit::fuzz::bytes(data, size);
  if (input.starts_with(kSqliteMagic))
    std::ofstream(path, std::ios::binary) << input;
  else
    run_sql(path, input);
  sasskit::fuzz::refuse_or_parse([&] {
    const sasskit::profile::Profile p = sasskit::profile::read_nsys_sqlite(path);
    sasskit::fuzz::refuse_or_parse([&] { sasskit::to_reference(p); });
    sasskit::kselect::from_export(p);
  });
  std::filesystem::remove(path);
  return 0;
}
