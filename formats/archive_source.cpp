#include "formats/archive_source.hpp"

#include <chrono>

#include "formats/archive.hpp"
#include "libcommon/progress.hpp"

namespace sasskit::archive {

void read_archive(const std::string& path, const KernelSelection& selection, TraceHandler& handler) {
  ArchiveReader reader(path);
  // Progress by CTAs, which the index counts per kernel.
  uint64_t total = 0, done = 0;
  for (const Entry& e : reader.entries())
    if (const auto* k = std::get_if<KernelEntry>(&e); k && selection.contains(k->info.id)) total += k->ctas;
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
    else if (const auto& k = std::get<KernelEntry>(e); selection.contains(k.info.id))
      reader.read_kernel(k, sink);
  }
}

}  // namespace sasskit::archive
