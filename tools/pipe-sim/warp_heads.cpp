#include "warp_heads.hpp"

#include <algorithm>
#include <string>

#include "libcommon/diag.hpp"

namespace sasskit::pipesim {
namespace {

// Adds head h of local warp `bit` to the masks, or takes it out of them.
void mark(HeadMasks& m, const Head& h, uint64_t bit) {
  switch (h.kind) {
    case Head::Kind::Barrier:
      m.barrier |= bit;
      break;
    case Head::Kind::Blocked:
      m.blocked |= bit;
      if (h.on_load) m.blocked_on_load |= bit;
      break;
    case Head::Kind::Ready:
      m.ready |= bit;
      if (h.mem) m.ready_mem |= bit;
      m.ready_unit[h.unit] |= bit;
      m.ready_units |= 1u << h.unit;
      break;
    case Head::Kind::Empty:
      break;
  }
}

void unmark(HeadMasks& m, const Head& h, uint64_t bit) {
  switch (h.kind) {
    case Head::Kind::Barrier:
      m.barrier &= ~bit;
      break;
    case Head::Kind::Blocked:
      m.blocked &= ~bit, m.blocked_on_load &= ~bit;
      break;
    case Head::Kind::Ready:
      m.ready &= ~bit, m.ready_mem &= ~bit;
      if (!(m.ready_unit[h.unit] &= ~bit)) m.ready_units &= ~(1u << h.unit);
      break;
    case Head::Kind::Empty:
      break;
  }
}

}  // namespace

WarpHeads::WarpHeads(size_t slots, unsigned subcores, bool keep_masks)
    : nsub_(std::max(1u, subcores)), heads_(std::max<size_t>(1, slots)), subcores_(nsub_) {
  subcore_slots_ = static_cast<unsigned>((heads_.size() + nsub_ - 1) / nsub_);
  keep_masks_ = keep_masks && subcore_slots_ <= 64;
}

void WarpHeads::add(uint32_t w) {
  SubCoreHeads& sc = subcores_[subcore_of(w)];
  sc.by_age.push_back(w);
  sc.by_slot.insert(std::upper_bound(sc.by_slot.begin(), sc.by_slot.end(), w), w);
  set(w, Head{});
  ++sc.version;
}

void WarpHeads::remove(uint32_t w) {
  set(w, Head{});
  SubCoreHeads& sc = subcores_[subcore_of(w)];
  sc.by_age.erase(std::find(sc.by_age.begin(), sc.by_age.end(), w));
  sc.by_slot.erase(std::find(sc.by_slot.begin(), sc.by_slot.end(), w));
  ++sc.version;
}

void WarpHeads::set(uint32_t w, const Head& h) {
  Head& old = heads_[w];
  if (h == old) return;
  SubCoreHeads& sc = subcores_[subcore_of(w)];
  if (keep_masks_) {
    const uint64_t bit = uint64_t(1) << (w / nsub_);
    unmark(sc.masks, old, bit);
    mark(sc.masks, h, bit);
    if (h.kind == Head::Kind::Blocked || h.kind == Head::Kind::Ready)
      sc.masks.latest_ready = std::max(sc.masks.latest_ready, h.ready);
  }
  old = h;
  ++sc.version;
}

void WarpHeads::check() const {
  auto wrong = [](const std::string& what, unsigned s) {
    throw Error(ExitCode::Internal, "warp table", what + " of sub-core " + std::to_string(s) + " is stale");
  };
  for (unsigned s = 0; s < nsub_; ++s) {
    const SubCoreHeads& sc = subcores_[s];
    std::vector<uint32_t> aged = sc.by_age;
    std::sort(aged.begin(), aged.end());
    if (aged != sc.by_slot) wrong("the age list", s);
    if (!keep_masks_) continue;
    HeadMasks fresh;
    for (uint32_t w : sc.by_slot) {
      const Head& h = heads_[w];
      mark(fresh, h, uint64_t(1) << (w / nsub_));
      if ((h.kind == Head::Kind::Blocked || h.kind == Head::Kind::Ready) && h.ready > sc.masks.latest_ready)
        wrong("the latest ready cycle", s);
    }
    fresh.latest_ready = sc.masks.latest_ready;
    if (!(fresh == sc.masks)) wrong("the head masks", s);
  }
}

}  // namespace sasskit::pipesim
