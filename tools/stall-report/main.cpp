// stall-report: stall stacks, metrics, validation and comparison of pipe-sim
// runs (stall-report(1)).
#include <optional>

#include "compare.hpp"
#include "gather.hpp"
#include "libcommon/cli.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"
#include "libcommon/progress.hpp"
#include "output.hpp"
#include "plot.hpp"
#include "runs.hpp"

using namespace sasskit;
using namespace sasskit::stallreport;

namespace {

// Each input loaded and labelled, each member of a concatenated input a
// run of its own; with labels, the shards of one run (inputs or members
// under one label) merged. Without labels every input and member is its own
// run, whatever its name: nothing is merged unless asked.
std::vector<Report> load_runs(const std::vector<std::string>& inputs, const std::vector<std::string>& labels,
                              const GatherOptions& gather) {
  std::vector<Report> reports;
  std::optional<ReadingJob> job;  // several inputs: one progress line for all of them
  if (inputs.size() > 1) job.emplace(std::to_string(inputs.size()) + " inputs", inputs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (Report& member : load_member_reports(inputs[i], gather)) {
      describe_run(member, labels.empty() ? "" : labels[i]);
      reports.push_back(std::move(member));
    }
  }
  return labels.empty() ? reports : merge_shards(std::move(reports));
}

// `validations`: none, or one per run.
void write_report(std::ostream& out, const std::string& format, const std::vector<Report>& runs,
                  const stream::Stage& self, const std::vector<Validation>& validations) {
  if (format == "json") {
    write_json(out, runs, self, validations);
  } else if (format == "csv") {
    if (validations.empty()) write_csv(out, runs);
    for (size_t i = 0; i < validations.size(); ++i) write_validation_csv(out, validations[i], i == 0);
  } else if (runs.size() > 1 && !validations.empty()) {
    for (const Validation& v : validations) write_validation_text(out, v);
    write_suite_text(out, validations, pool_validations(validations));
  } else if (runs.size() > 1) {
    write_compare_text(out, compare(runs));
  } else {
    write_text(out, runs.front());
    if (!validations.empty()) write_validation_text(out, validations.front());
  }
}

}  // namespace

int main(int argc, char** argv) {
  ToolApp tool("stall-report",
               "Report what limited each kernel of pipe-sim runs (stall breakdown, metrics, top stalled PCs), "
               "validate a run against measured statistics, or compare and tabulate any number of runs.",
               argc, argv, SharedOptions{.provenance = true});
  CLI::App& app = tool.app();
  std::vector<std::string> inputs, labels;
  std::string output = "-", format = "text", plot, pcs, provenance_file;
  std::vector<std::string> references;
  GatherOptions gather;
  app.add_option("inputs", inputs, "Streams with stats records (- = stdin); inputs under one --label are shards of one run");
  app.add_option("-l,--label", labels, "The run's label, once per input (default: the input's name; only labelled inputs are merged)")
      ->allow_extra_args(false);  // one value per -l, so the inputs after it stay inputs
  app.add_option("-o,--output", output, "Report file (- = stdout)")->capture_default_str();
  app.add_option("--format", format, "Output: text, csv or json")
      ->check(CLI::IsMember({"text", "csv", "json"}))
      ->capture_default_str();
  app.add_option("--reference", references,
                 "Validate the run against FILE (Nsight Compute CSV, nvprof CSV, Accel-Sim statistics or plain CSV); "
                 "once per run, in order, to validate a suite, or once for runs labelled by the applications of a "
                 "multi-process ncu export")
      ->allow_extra_args(false);
  profile::ReadOptions reference_options;
  app.add_option("--reference-config", reference_options.config,
                 "With --reference: the config of an Accel-Sim get_stats.py CSV to validate against");
  app.add_option("--plot", plot, "Draw CPI stacks (side by side for several runs) into FILE (.svg or .png) with gnuplot");
  app.add_option("--pcs", pcs, "Write every static PC's instructions and stall cycles per type to FILE (CSV)");
  app.add_option("--provenance-file", provenance_file,
                 "Write each run's provenance (the stages that made it, as JSON) to FILE, e.g. beside a CSV");
  app.add_option("--top", gather.top_pcs, "Stalled PCs listed per kernel")->capture_default_str();
  return tool.run([&] {
    if (inputs.empty()) inputs.push_back("-");
    if (!labels.empty() && labels.size() != inputs.size())
      fail_usage("give --label once per input (" + std::to_string(inputs.size()) + " inputs, " +
                 std::to_string(labels.size()) + " labels)");
    if (references.empty() && !reference_options.config.empty()) fail_usage("--reference-config needs --reference");
    gather.all_pcs = !pcs.empty();
    std::vector<Report> runs = load_runs(inputs, labels, gather);
    std::vector<Validation> validations;
    if (!references.empty()) validations = validate_runs(runs, references, reference_options);
    Output out(output, OutputKind::Text);
    if (!plot.empty() && validations.size() > 1) write_correlation_plot(validations, plot);
    else if (!plot.empty() && runs.size() > 1) write_compare_plot(runs, plot);
    else if (!plot.empty()) write_plot(runs.front(), validations.empty() ? nullptr : &validations.front(), plot);
    if (!pcs.empty()) {
      Output pc_out(pcs, OutputKind::Text);
      write_pcs_csv(pc_out.stream(), runs);
      pc_out.commit();
    }
    const stream::Stage self =
        stream::this_stage("stall-report", tool.common().argv, tool.common().no_provenance,
                           tool.common().effective_options);
    if (!provenance_file.empty()) {
      Output provenance_out(provenance_file, OutputKind::Text);
      write_provenance_json(provenance_out.stream(), runs, self);
      provenance_out.commit();
    }
    write_report(out.stream(), format, runs, self, validations);
    out.commit();
  });
}
