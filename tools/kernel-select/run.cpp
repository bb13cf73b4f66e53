#include "run.hpp"

#include <iostream>
#include <sstream>

#include "formats/plan_record.hpp"
#include "formats/stream_json.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"
#include "libcommon/progress.hpp"
#include "output.hpp"
#include "read_profile.hpp"
#include "summary_plan.hpp"

namespace sasskit::kselect {
namespace {

void check_open_interval(double v, const std::string& option) {
  std::ostringstream text;
  text << v;
  if (!(v > 0 && v < 1)) fail_usage(option + " must be in (0, 1), got " + text.str());
}

void check_options(const RunOptions& o) {
  check_open_interval(o.method.epsilon, "--epsilon");
  check_open_interval(o.method.confidence, "--confidence");
  if (o.repeat < 1) fail_usage("--repeat must be at least 1");
  if (o.repeat > 1 && !o.evaluate) fail_usage("--repeat needs --evaluate");
}

void report(const Profile& p, const Selection& s) {
  if (quiet()) return;
  clear_progress_line();  // the input's, still open
  std::cerr << program_name() << ": " << summary(p, s) << "\n";
}

void write_evaluation(const RunOptions& o, const Profile& p, const Selector& select) {
  Evaluation e = evaluate(p, select, o.seed, o.repeat);
  Output out(o.output, OutputKind::Text);
  if (o.format == "json") write_evaluation_json(out.stream(), e);
  else if (o.format == "csv") write_evaluation_csv(out.stream(), e);
  else write_evaluation_text(out.stream(), e);
  out.commit();
  report(p, select(o.seed));
}

// Writes `plan` in the --format asked for; `upstream`: the provenance of
// the stream the profile came from, if any.
void write_plan(const RunOptions& o, const CommonOptions& common, const Plan& plan,
                const std::vector<stream::Stage>& upstream) {
  const stream::Stage self = stream::this_stage(program_name(), common.argv, common.no_provenance, common.effective_options);
  if (o.format != "stream") {
    Output out(o.output, OutputKind::Text);
    if (o.format == "json") write_plan_json(out.stream(), plan, report_provenance(upstream, self));
    else write_plan_csv(out.stream(), plan);
    out.commit();
    return;
  }
  Output out(o.output, OutputKind::Binary, common.force);
  stream::Writer writer(out.stream(), out.name(), stream::Header{}, self);
  writer.write(plan);
  writer.finish();
  out.commit();
}

// A stream in, a stream out: every record passes through as it is read
// (an older plan record is dropped: this stage owns the type) and the plan
// goes last.
void run_stream_pipeline(const RunOptions& o, const CommonOptions& common, Input& in) {
  stream::Reader reader(in.stream(), in.name());
  Output out(o.output, OutputKind::Binary, common.force);
  stream::Writer writer(out.stream(), out.name(), reader.header(),
                        stream::this_stage(program_name(), common.argv, common.no_provenance, common.effective_options));
  Profile p = read_stream_profile(
      reader, [&](const stream::Record& r) { if (r.type() != stream::RecordCodec<Plan>::type) writer.write(r); },
      [&](const stream::Header& member) { writer.next_member(member); });
  Selection s = make_selector(p, o.method)(o.seed);
  writer.write(s.plan);
  writer.finish();
  out.commit();
  report(p, s);
}

// The plan (or evaluation) of a profile read whole, in the --format asked
// for; `upstream`: the provenance of the stream it came from, if any.
void write_selection(const RunOptions& o, const CommonOptions& common, const Profile& p,
                     const std::vector<stream::Stage>& upstream = {}) {
  Selector select = make_selector(p, o.method);
  if (o.evaluate) return write_evaluation(o, p, select);
  Selection s = select(o.seed);
  write_plan(o, common, s.plan, upstream);
  report(p, s);
}

// A summary export's plan: one pick per kernel name (summary_plan.hpp).
void write_summary_plan(const RunOptions& o, const CommonOptions& common, const profile::Profile& src) {
  if (o.evaluate) fail_input(src.source, "--evaluate needs each launch's duration, which a summary does not give");
  write_plan(o, common, summary_plan(src, o.method), {});
}

// A profiler export's plan: one pick per kernel name from a summary, a
// method's selection from a per-launch export.
void write_export_plan(const RunOptions& o, const CommonOptions& common, const profile::Profile& src) {
  if (is_summary(src)) return write_summary_plan(o, common, src);
  write_selection(o, common, from_export(src));
}

}  // namespace

void run(const RunOptions& o, const CommonOptions& common) {
  check_options(o);
  if (o.input != "-" && profile::is_sqlite_file(o.input))
    return write_export_plan(o, common, profile::load_profile(o.input, o.profile));
  Input in(o.input);
  const bool stream_in = looks_like_stream(in.stream());
  if (stream_in && !o.profile.config.empty()) fail_usage("--profile-config names a config of a get_stats.py CSV, not of a stream");
  if (stream_in && o.format == "stream" && !o.evaluate) return run_stream_pipeline(o, common, in);

  if (!stream_in) {
    const profile::Profile src = profile::read_profile(in.stream(), in.name(), o.profile);
    in.check_read_error();
    return write_export_plan(o, common, src);
  }
  stream::Reader reader(in.stream(), in.name());
  const Profile p = read_stream_profile(reader, [](const stream::Record&) {});
  write_selection(o, common, p, reader.header().provenance);
}

}  // namespace sasskit::kselect
