#include "formats/archive_source.hpp"

#include <chrono>

#include "formats/archive.hpp"
#include "libcommon/progress.hpp"

namespace sasskit::archive {

void read_archive(const std::string& path, KernelSelector& selection, TraceHandler& handler) {
  ArchiveReader reader(path);
  // Progress by CTAs, which the index counts per kernel; a copy of the
  // selector counts them, since selecting advances --launch-skip and --launch-count.
  uint64_t total = 0, done = 0;
  KernelSelector counting = selection;
  for (const Entry& e : reader.entries())
    if (const auto* k = std::get_if<KernelEntry>(&e); k && counting.select(k->info)) total += k->ctas;
  Progress progress;
  const auto start = std::chrono::steady_clock::now();
  auto cta_done = [&] {
    ++done;
    if (!progress.active()) return;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    progress.update("reading " + path + ": " + percent_and_eta(double(done), double(total), elapsed.count()));
  };
  accelsim::KernelSink sink{[&](const KernelInfo& k) { handler.kernel(k); },
                            [&](const InstTable& t) { handler.insts(t); },
                            [&](const CtaTrace& c) {
                              handler.cta(c);
                              cta_done();
                            }};
  for (const Entry& e : reader.entries()) {
    if (const auto* copy = std::get_if<Memcpy>(&e))
      handler.memcpy(*copy);
    else if (const auto& k = std::get<KernelEntry>(e); selection.select(k.info))
      reader.read_kernel(k, sink);
  }
}

}  // namespace sasskit::archive
