// Writing plans and evaluations: JSON and text forms, and the one-line
// summary on stderr.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "evaluate.hpp"
#include "formats/stream.hpp"

namespace sasskit::kselect {

// The plan, then "provenance": the stages of the stream it was chosen from
// (none for a profile), then kernel-select's (formats/stream_json.hpp).
void write_plan_json(std::ostream& out, const Plan& plan, const std::vector<stream::Stage>& provenance);
void write_evaluation_json(std::ostream& out, const Evaluation& e);
void write_evaluation_csv(std::ostream& out, const Evaluation& e);
void write_evaluation_text(std::ostream& out, const Evaluation& e);

// "stem: 39272 invocations of 6 kernels, 9 clusters, 40 samples (38 distinct),
// predicted speedup 812.3, theoretical error bound 4.98% at 95% confidence"
std::string summary(const Profile& p, const Selection& s);

}  // namespace sasskit::kselect
