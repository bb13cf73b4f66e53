#include "program.hpp"

#include "formats/records.hpp"

namespace sasskit::pipesim {

uint64_t CtaSource::insts(uint32_t i) const {
  if (!held) return total(spilled->units(i));
  uint64_t n = 0;
  for (const auto& w : (*held)[i].warps) n += w.inst.size();
  return n;
}

const CtaTrace& CtaSource::trace(uint32_t i, std::unique_ptr<CtaTrace>& loaded) const {
  if (held) return (*held)[i];
  if (!loaded) {
    std::string bytes;
    spill->read(first_record + i, bytes);
    loaded = std::make_unique<CtaTrace>(stream::decode<CtaTrace>(stream::Record(bytes, "spilled cta record")));
  }
  return *loaded;
}

}  // namespace sasskit::pipesim
