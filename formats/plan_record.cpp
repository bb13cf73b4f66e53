#include "formats/plan_record.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "formats/csv.hpp"
#include "formats/field_table.hpp"
#include "libcommon/io.hpp"

namespace sasskit {

PlanSelection::PlanSelection(Plan plan) : plan_(std::move(plan)) {
  for (size_t i = 0; i < plan_.entries.size(); ++i) index_.emplace(plan_.entries[i].id, i);
}

const PlanEntry* PlanSelection::entry(uint64_t kernel_id) const {
  auto it = index_.find(kernel_id);
  return it == index_.end() ? nullptr : &plan_.entries[it->second];
}

namespace {

// Shortest text that reads back to the same double.
std::string number(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

double parse_double(const std::string& text, const std::string& where, const std::string& what) {
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty() || !std::isfinite(v))
    fail_input(where, what + " " + quoted_input(text) + " is not a number");
  return v;
}

uint64_t parse_uint(const std::string& text, const std::string& where, const std::string& what) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty())
    fail_input(where, what + " " + quoted_input(text) + " is not a non-negative integer");
  return v;
}

uint32_t parse_u32(const std::string& text, const std::string& where, const std::string& what) {
  const uint64_t v = parse_uint(text, where, what);
  if (v > std::numeric_limits<uint32_t>::max()) fail_input(where, what + " " + text + " is out of range (at most 2^32-1)");
  return static_cast<uint32_t>(v);
}

// The earlier CSV form: "# key=value" lines, then these columns. Still
// read, so plans written before the loader-friendly form stay usable.
constexpr std::string_view kCommentedColumns = "id,name,cluster,picks,weight";

// "# key=value" lines of the commented form; cluster lines carry CSV fields.
void read_csv_comment(std::string_view body, Plan& plan, const std::string& where,
                      std::vector<std::string>& fields) {
  size_t eq = body.find('=');
  if (eq == std::string_view::npos) return;  // free text
  std::string key(body.substr(0, eq)), value(body.substr(eq + 1));
  if (key == "method") plan.method = value;
  else if (key == "unit") plan.unit = value;
  else if (key == "invocations") plan.invocations = parse_uint(value, where, key);
  else if (key == "total") plan.total = parse_double(value, where, key);
  else if (key == "error_bound") plan.error_bound = parse_double(value, where, key);
  else if (key.starts_with("param.")) plan.params[key.substr(6)] = parse_double(value, where, key);
  else if (key == "cluster") {
    if (!split_csv_line(value, fields) || fields.size() != 5)
      fail_input(where, "cluster line needs label,size,samples,mean,sd");
    plan.clusters.push_back(PlanCluster{fields[0], parse_uint(fields[1], where, "size"),
                                        parse_u32(fields[2], where, "samples"),
                                        parse_double(fields[3], where, "mean"),
                                        parse_double(fields[4], where, "sd")});
  }
}

PlanEntry parse_entry(const std::vector<std::string>& f, const std::string& where) {
  return PlanEntry{parse_uint(f[0], where, "kernel_id"), f[1], parse_u32(f[2], where, "cluster"),
                   parse_u32(f[3], where, "picks"), parse_double(f[4], where, "weight")};
}

// The columns of the loader-friendly form: each entry, then its cluster,
// then the plan's fields repeated on every row, then its parameters.
constexpr std::string_view kEntryColumns =
    "kernel_id,kernel_name,cluster,picks,weight,cluster_label,cluster_size,cluster_samples,cluster_mean,"
    "cluster_sd,method,unit,invocations,total,error_bound_frac";
constexpr size_t kFixedColumns = 15;
constexpr std::string_view kParamPrefix = "param_";

// One row of the loader-friendly form into `plan`: the entry, its cluster
// (the first row naming it sets it) and the plan's fields.
void read_entry_row(const std::vector<std::string>& f, const std::vector<std::string>& params, Plan& plan,
                    std::map<uint32_t, PlanCluster>& clusters, const std::string& where) {
  PlanEntry e = parse_entry(f, where);
  clusters.try_emplace(e.cluster, PlanCluster{f[5], parse_uint(f[6], where, "cluster_size"),
                                              parse_u32(f[7], where, "cluster_samples"),
                                              parse_double(f[8], where, "cluster_mean"),
                                              parse_double(f[9], where, "cluster_sd")});
  plan.method = f[10];
  plan.unit = f[11];
  plan.invocations = parse_uint(f[12], where, "invocations");
  plan.total = parse_double(f[13], where, "total");
  if (!f[14].empty()) plan.error_bound = parse_double(f[14], where, "error_bound_frac");
  for (size_t i = 0; i < params.size(); ++i)
    plan.params[params[i]] = parse_double(f[kFixedColumns + i], where, std::string(kParamPrefix) + params[i]);
  plan.entries.push_back(std::move(e));
}

// The clusters the rows named, which must be 0, 1, ... without a gap.
std::vector<PlanCluster> cluster_list(std::map<uint32_t, PlanCluster>& clusters, const std::string& name) {
  std::vector<PlanCluster> list;
  for (auto& [index, c] : clusters) {
    if (index != list.size()) fail_input(name, "cluster " + std::to_string(list.size()) + " has no row");
    list.push_back(std::move(c));
  }
  return list;
}

// The parameter names of a loader-friendly header, or nullopt when the
// line is not one.
std::optional<std::vector<std::string>> entry_header_params(std::string_view line,
                                                            const std::vector<std::string>& fields) {
  if (!line.starts_with(kEntryColumns) || fields.size() < kFixedColumns ||
      fields[kFixedColumns - 1] != "error_bound_frac")
    return std::nullopt;
  std::vector<std::string> params;
  for (size_t i = kFixedColumns; i < fields.size(); ++i) {
    if (!fields[i].starts_with(kParamPrefix)) return std::nullopt;
    params.push_back(fields[i].substr(kParamPrefix.size()));
  }
  return params;
}

}  // namespace

void write_plan_csv(std::ostream& out, const Plan& plan) {
  out << kEntryColumns;
  for (const auto& [k, v] : plan.params) out << ',' << kParamPrefix << k;
  out << '\n';
  for (const auto& e : plan.entries) {
    const PlanCluster& c = plan.clusters.at(e.cluster);
    out << e.id << ',' << csv_field(e.name) << ',' << e.cluster << ',' << e.picks << ',' << number(e.weight) << ','
        << csv_field(c.label) << ',' << c.size << ',' << c.samples << ',' << number(c.mean) << ','
        << number(c.sd) << ',' << csv_field(plan.method) << ',' << csv_field(plan.unit) << ','
        << plan.invocations << ',' << number(plan.total) << ','
        << (plan.error_bound ? number(*plan.error_bound) : "");
    for (const auto& [k, v] : plan.params) out << ',' << number(v);
    out << '\n';
  }
}

Plan read_plan_csv(std::istream& in, const std::string& name) {
  enum class Layout { Unknown, Commented, LoaderFriendly } layout = Layout::Unknown;
  Plan plan;
  std::string line;
  std::vector<std::string> fields, params;
  std::map<uint32_t, PlanCluster> clusters;  // of the loader-friendly form, by index
  uint64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::string where = location(name, line_no);
    if (layout == Layout::Unknown && line.starts_with("#")) {
      read_csv_comment(std::string_view(line).substr(line.starts_with("# ") ? 2 : 1), plan, where, fields);
      continue;
    }
    if (!split_csv_line(line, fields)) fail_input(where, "unterminated quoted field");
    if (layout == Layout::Unknown) {
      const std::string_view header = strip_bom(line);
      if (header.substr(0, kCommentedColumns.size()) == kCommentedColumns) layout = Layout::Commented;
      else if (auto names = entry_header_params(header, fields)) layout = Layout::LoaderFriendly, params = *names;
      else fail_input(where, "expected the plan columns '" + std::string(kEntryColumns) + "[,param_NAME...]'");
      continue;
    }
    const size_t expected = layout == Layout::Commented ? 5 : kFixedColumns + params.size();
    if (fields.size() != expected)
      fail_input(where, "expected " + std::to_string(expected) + " fields, found " + std::to_string(fields.size()));
    if (layout == Layout::LoaderFriendly) {
      read_entry_row(fields, params, plan, clusters, where);
      continue;
    }
    PlanEntry e = parse_entry(fields, where);
    if (!plan.clusters.empty() && e.cluster >= plan.clusters.size())
      fail_input(where, "cluster " + fields[2] + " is not declared");
    plan.entries.push_back(std::move(e));
  }
  if (layout == Layout::Unknown) fail_input(name, "not a plan: no '" + std::string(kEntryColumns) + "' line");
  if (layout == Layout::LoaderFriendly) plan.clusters = cluster_list(clusters, name);
  return plan;
}

Plan load_plan(const std::string& path) {
  Input in(path);
  int first = in.stream().peek();
  if (first == std::char_traits<char>::eof()) fail_input(in.name(), "empty plan file");
  if (first == '#' || first == 'k' || first == 'i' || first == 0xEF) {
    Plan plan = read_plan_csv(in.stream(), in.name());
    in.check_read_error();
    return plan;
  }
  stream::Reader reader(in.stream(), in.name());
  stream::Record record;
  while (reader.next(record))
    if (record.type() == stream::RecordCodec<Plan>::type) return stream::decode<Plan>(record);
  fail_input(in.name(), "the stream holds no plan record");
}

}  // namespace sasskit

namespace sasskit::stream {
namespace {

template <class T>
std::vector<T> column(const MapView& m, std::string_view name, size_t expected) {
  auto v = m.get<std::vector<T>>(name);
  if (v.size() != expected)
    fail_input(m.where(), "column '" + std::string(name) + "' has " + std::to_string(v.size()) +
                              " values, expected " + std::to_string(expected));
  return v;
}

// The plan's scalars in the record's order (formats/STREAM.md, plan); its
// clusters and entries follow as columns. A new scalar is a member and a
// line here.
constexpr Field<Plan> kPlanFields[] = {
    {"method", &Plan::method},
    {"params", &Plan::params},
    {"unit", &Plan::unit},
    {"invocations", &Plan::invocations},
    {"total", &Plan::total},
    {"error_bound", &Plan::error_bound, Need::IfSet},
};

}  // namespace

void RecordCodec<Plan>::pack(Packer& pk, const Plan& p) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    pack_fields(map, p, kPlanFields);
    map.with("cluster_label", column_of(p.clusters, [](const PlanCluster& c) { return c.label; }));
    map.with("cluster_size", column_of(p.clusters, [](const PlanCluster& c) { return c.size; }));
    map.with("cluster_samples", column_of(p.clusters, [](const PlanCluster& c) { return c.samples; }));
    map.with("cluster_mean", column_of(p.clusters, [](const PlanCluster& c) { return c.mean; }));
    map.with("cluster_sd", column_of(p.clusters, [](const PlanCluster& c) { return c.sd; }));
    map.with("id", column_of(p.entries, [](const PlanEntry& e) { return e.id; }));
    map.with("name", column_of(p.entries, [](const PlanEntry& e) { return e.name; }));
    map.with("cluster", column_of(p.entries, [](const PlanEntry& e) { return e.cluster; }));
    map.with("picks", column_of(p.entries, [](const PlanEntry& e) { return e.picks; }));
    map.with("weight", column_of(p.entries, [](const PlanEntry& e) { return e.weight; }));
  });
}

Plan RecordCodec<Plan>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  Plan p;
  read_fields(m, p, kPlanFields, "plan");
  auto labels = m.get<std::vector<std::string>>("cluster_label");
  auto sizes = column<uint64_t>(m, "cluster_size", labels.size());
  auto samples = column<uint32_t>(m, "cluster_samples", labels.size());
  auto means = column<double>(m, "cluster_mean", labels.size());
  auto sds = column<double>(m, "cluster_sd", labels.size());
  for (size_t i = 0; i < labels.size(); ++i)
    p.clusters.push_back(PlanCluster{labels[i], sizes[i], samples[i], means[i], sds[i]});
  auto ids = m.get<std::vector<uint64_t>>("id");
  auto names = column<std::string>(m, "name", ids.size());
  auto clusters = column<uint32_t>(m, "cluster", ids.size());
  auto picks = column<uint32_t>(m, "picks", ids.size());
  auto weights = column<double>(m, "weight", ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    if (clusters[i] >= p.clusters.size())
      fail_input(r.where(), "entry " + std::to_string(i) + " names cluster " +
                                std::to_string(clusters[i]) + " of " +
                                std::to_string(p.clusters.size()));
    p.entries.push_back(PlanEntry{ids[i], names[i], clusters[i], picks[i], weights[i]});
  }
  return p;
}

}  // namespace sasskit::stream
