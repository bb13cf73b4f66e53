// Runs: what each input is called (its label, GPU model and configuration)
// and how the shards of one run are merged back into it.
#pragma once

#include <string>
#include <vector>

#include "report.hpp"

namespace sasskit::stallreport {

// The configuration of the stages that computed records for a GPU model
// (cta-sample, rd-cache, pipe-sim: those whose provenance names a gpu), as
// "tool --option=value --flag; tool", from the options each stage recorded
// (sasskit-stream(5)). A stage of a stream before 2.3, which recorded none,
// shows as "tool (command line: ARGS)", or "tool (options not recorded)"
// when it ran with --no-provenance. Control characters become '?'.
std::string run_config(const std::vector<stream::Stage>& provenance);

// Whether two provenance chains are one configuration: the same GPU stages
// in order, each with the same tool, model name, model fingerprint and
// options, the model's keys aside (the fingerprint stands for the model's
// values, however they were given). A stage before 2.3, which recorded no
// options and no fingerprint, is compared by its command line as recorded.
bool same_configuration(const std::vector<stream::Stage>& a, const std::vector<stream::Stage>& b);

// Sets rep.run (`label`, else the input's name as given), rep.gpu (the GPU
// stages' model, else the stats records') and rep.config.
void describe_run(Report& rep, const std::string& label);

// Reports with the same run label are shards of one run: their kernels are
// put together (by id) and the application totals recomputed. A kernel in
// several shards (CTA-range shards) becomes one row whose counts are summed
// (KernelReport::shards says how many). Shards must agree on GPU model and
// configuration (BadInput otherwise). Runs keep the order of first appearance.
std::vector<Report> merge_shards(std::vector<Report> reports);

}  // namespace sasskit::stallreport
