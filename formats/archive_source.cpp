#include "formats/archive_source.hpp"

#include "formats/archive.hpp"

namespace sasskit::archive {

void read_archive(const std::string& path, const KernelSelection& selection, TraceHandler& handler) {
  ArchiveReader reader(path);
  accelsim::KernelSink sink{[&](const KernelInfo& k) { handler.kernel(k); },
                            [&](const InstTable& t) { handler.insts(t); },
                            [&](const CtaTrace& c) { handler.cta(c); }};
  for (const Entry& e : reader.entries()) {
    if (const auto* copy = std::get_if<Memcpy>(&e))
      handler.memcpy(*copy);
    else if (const auto& k = std::get<KernelEntry>(e); selection.contains(k.info.id))
      reader.read_kernel(k, sink);
  }
}

}  // namespace sasskit::archive
