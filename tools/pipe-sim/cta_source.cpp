#include "program.hpp"

#include "formats/records.hpp"

namespace sasskit::pipesim {

uint64_t CtaSource::insts(uint32_t i) const {
  if (!held) return total(spilled->units(i));
  uint64_t n = 0;
  for (const auto& w : (*held)[i].warps) n += w.inst.size();
  return n;
}

void CtaSource::read_back(uint32_t i, CtaTrace& into, std::string& bytes) const {
  spill->read_near(first_record + i, bytes);
  stream::RecordCodec<CtaTrace>::unpack(stream::Record(bytes, "spilled cta record"), into);
}

}  // namespace sasskit::pipesim
