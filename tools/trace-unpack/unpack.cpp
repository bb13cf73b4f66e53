#include "unpack.hpp"

#include <memory>
#include <optional>
#include <set>

#include "formats/archive_source.hpp"
#include "formats/plan_record.hpp"
#include "formats/stream.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"
#include "sinks.hpp"

namespace sasskit::unpack {
namespace {

// The input, opened once: its upstream header (empty for Accel-Sim text)
// and a way to feed its events to a handler (Accel-Sim text parsed and an
// archive's blocks decompressed on `threads`).
class Source {
 public:
  Source(const std::string& path, KernelSelector& kernels, unsigned threads)
      : path_(path), kernels_(kernels), threads_(threads) {
    if (is_accelsim_path(path)) {
      format_ = TraceFormat::AccelsimDir;
      return;
    }
    input_ = std::make_unique<Input>(path);
    // stdin can be read only once: the reader (or the archive's spool) gets these bytes back
    format_ = detect_trace_format(*input_, head_);
    if (format_ == TraceFormat::Stream) {
      reader_ = std::make_unique<stream::Reader>(input_->stream(), input_->name(), head_);
      upstream_ = reader_->header();
    }
  }
  const stream::Header& upstream() const { return upstream_; }

  void feed(TraceHandler& handler) {
    switch (format_) {
      case TraceFormat::AccelsimDir:
        read_accelsim(path_, kernels_, handler, threads_);
        break;
      case TraceFormat::Stream:
        read_stream(*reader_, kernels_, handler);
        break;
      case TraceFormat::Archive:
        if (path_ == "-")
          archive::read_archive(*input_, head_, kernels_, handler, threads_);
        else
          archive::read_archive(path_, kernels_, handler, {}, threads_);
        break;
    }
  }

 private:
  std::string path_;
  KernelSelector& kernels_;
  unsigned threads_;
  TraceFormat format_ = TraceFormat::Stream;
  std::unique_ptr<Input> input_;
  std::string head_;
  std::unique_ptr<stream::Reader> reader_;
  stream::Header upstream_;
};

// The kernels to keep: the selection options, narrowed to the plan's when
// there is one.
KernelSelector kernels_to_keep(const Options& options, const std::optional<Plan>& plan) {
  KernelSelector kernels(options.kernels);
  if (!plan) return kernels;
  std::set<uint32_t> planned;
  for (const PlanEntry& e : plan->entries) planned.insert(static_cast<uint32_t>(e.id));
  kernels.keep_only(planned, "--plan");
  return kernels;
}

// Feeds the source to `sink` through --ctas; fails (before the output is
// complete) when a filter given keeps nothing.
void feed_selected(Source& source, const KernelSelector& kernels, const Options& options, TraceHandler& sink) {
  const std::string input = options.input == "-" ? "<stdin>" : options.input;
  if (!options.ctas) {
    source.feed(sink);
    kernels.fail_if_none_kept(input);
    return;
  }
  CtaRangeFilter filter(sink, *options.ctas);
  source.feed(filter);
  kernels.fail_if_none_kept(input);
  filter.fail_if_none_kept(input);
}

}  // namespace

void run(const Options& options, const CommonOptions& common) {
  std::optional<Plan> plan;
  if (!options.plan.empty()) plan = load_plan(options.plan);
  KernelSelector kernels = kernels_to_keep(options, plan);
  Source source(options.input, kernels, common.threads);
  stream::Stage self = stream::this_stage("trace-unpack", common.argv, common.no_provenance, common.effective_options);
  switch (options.target) {
    case Target::Stream: {
      Output out(options.output, OutputKind::Binary, common.force);
      stream::Writer writer(out.stream(), out.name(), source.upstream(), self);
      if (plan) writer.write(*plan);
      StreamSink sink(writer, common.threads);
      try {
        feed_selected(source, kernels, options, sink);
      } catch (const Error& e) {
        // The CTAs before a refused input are written, as one thread writes
        // them: what reaches stdout does not depend on the thread count.
        if (e.code() == ExitCode::BadInput) sink.flush();
        throw;
      }
      sink.flush();
      writer.finish();
      out.commit();
      break;
    }
    case Target::Jsonl: {
      Output out(options.output, OutputKind::Text);
      JsonlSink sink(out.stream(), source.upstream(), self);
      if (plan) sink.typed(*plan);
      feed_selected(source, kernels, options, sink);
      sink.finish();
      out.commit();
      break;
    }
    case Target::Accelsim: {
      AccelsimSink sink(options.output, options.output == "-");
      feed_selected(source, kernels, options, sink);
      sink.finish();
      break;
    }
  }
}

}  // namespace sasskit::unpack
