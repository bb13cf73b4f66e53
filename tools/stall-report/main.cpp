// stall-report: stall stacks, metrics, validation and comparison of pipe-sim
// runs (stall-report(1)).
#include "compare.hpp"
#include "gather.hpp"
#include "libcommon/cli.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"
#include "output.hpp"
#include "plot.hpp"

using namespace sasskit;
using namespace sasskit::stallreport;

int main(int argc, char** argv) {
  ToolApp tool("stall-report",
               "Report what limited each kernel of a pipe-sim stream (stall breakdown, metrics, top stalled PCs), "
               "validate it against measured statistics, or compare two runs.",
               argc, argv);
  CLI::App& app = tool.app();
  std::vector<std::string> inputs;
  std::string output = "-", format = "text", reference, plot, pcs;
  GatherOptions gather;
  app.add_option("inputs", inputs, "Stream with stats records (- = stdin); two streams A B to compare")
      ->expected(1, CLI::detail::expected_max_vector_size);  // usage "[inputs...]"; more than 2 refused below
  app.add_option("-o,--output", output, "Report file (- = stdout)")->capture_default_str();
  app.add_option("--format", format, "Output: text, csv or json")
      ->check(CLI::IsMember({"text", "csv", "json"}))
      ->capture_default_str();
  app.add_option("--reference", reference,
                 "Validate against FILE: Nsight Compute CSV, nvprof CSV, Accel-Sim statistics or plain CSV");
  profile::ReadOptions reference_options;
  app.add_option("--reference-config", reference_options.config,
                 "With --reference: the config of an Accel-Sim get_stats.py CSV to validate against");
  app.add_option("--plot", plot, "Draw CPI stacks (per run with two inputs) into FILE (.svg or .png) with gnuplot");
  app.add_option("--pcs", pcs, "Write every static PC's instructions and stall cycles per type to FILE (CSV)");
  app.add_option("--top", gather.top_pcs, "Stalled PCs listed per kernel")->capture_default_str();
  return tool.run([&] {
    if (inputs.empty()) inputs.push_back("-");
    if (inputs.size() > 2) fail_usage("give one stream, or two streams to compare");
    if (reference.empty() && !reference_options.config.empty()) fail_usage("--reference-config needs --reference");
    if (inputs.size() == 2 && (!reference.empty() || !pcs.empty()))
      fail_usage("--reference and --pcs take one input, not the two of a comparison");
    gather.all_pcs = !pcs.empty();
    Output out(output, OutputKind::Text);
    if (inputs.size() == 2) {
      std::vector<Report> runs{load_report(inputs[0], gather), load_report(inputs[1], gather)};
      if (!plot.empty()) write_compare_plot(runs, plot);
      Comparison c = compare(runs[0], runs[1]);
      if (format == "json") write_compare_json(out.stream(), c);
      else if (format == "csv") write_compare_csv(out.stream(), c);
      else write_compare_text(out.stream(), c);
      out.commit();
      return;
    }
    Report rep = load_report(inputs[0], gather);
    std::optional<Validation> validation;
    if (!reference.empty()) validation = validate(rep, load_reference(reference, reference_options), reference);
    if (!plot.empty()) write_plot(rep, validation ? &*validation : nullptr, plot);
    if (!pcs.empty()) {
      Output pc_out(pcs, OutputKind::Text);
      write_pcs_csv(pc_out.stream(), rep);
      pc_out.commit();
    }
    if (format == "json") {
      write_json(out.stream(), rep, validation ? &*validation : nullptr);
    } else if (format == "csv") {
      if (validation) write_validation_csv(out.stream(), *validation);
      else write_csv(out.stream(), rep);
    } else {
      write_text(out.stream(), rep);
      if (validation) write_validation_text(out.stream(), *validation);
    }
    out.commit();
  });
}
