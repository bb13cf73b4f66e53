#include "formats/kernel_stream.hpp"

#include "formats/msgpack_raw.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::stream {

std::string kernel_label(const KernelInfo& k) {
  return "kernel " + std::to_string(k.id) + " (" + bounded_input(k.name) + ")";
}

namespace {
bool inside(const Dim3& cta, const Dim3& grid) {
  return cta.x < grid.x && cta.y < grid.y && cta.z < grid.z;
}
}  // namespace

uint64_t cta_linear_index(const Dim3& cta, const Dim3& grid, const std::string& kernel,
                          const std::string& where) {
  if (!inside(cta, grid))
    fail_input(where, "CTA (" + std::to_string(cta.x) + "," + std::to_string(cta.y) + "," +
                          std::to_string(cta.z) + ") is outside the grid (" + std::to_string(grid.x) +
                          "," + std::to_string(grid.y) + "," + std::to_string(grid.z) + ") of " + kernel);
  return cta.x + uint64_t(grid.x) * (cta.y + uint64_t(grid.y) * cta.z);
}

uint64_t Kernel::linear_index(const Dim3& cta, const std::string& where) const {
  // The label is for the message only: most CTAs lie inside.
  if (inside(cta, info_.grid)) return cta_linear_index(cta, info_.grid, {}, where);
  return cta_linear_index(cta, info_.grid, label(), where);
}

void check_slice_continues(const InstTable& slice, size_t table_size, const std::string& where) {
  if (slice.first != table_size)
    fail_input(where, "insts slice starts at entry " + std::to_string(slice.first) + ", expected " +
                          std::to_string(table_size) + " (slices continue the table)");
}

CtaTrace CtaRecord::decode() const {
  CtaTrace c;
  decode(c);
  return c;
}

void CtaRecord::decode(CtaTrace& c) const {
  RecordCodec<CtaTrace>::unpack(record_, c);
  validate_cta(c, kernel_.table(), record_.where());
}

// Builds kernels from the records of one member and dispatches them.
class KernelAssembler {
 public:
  KernelAssembler(KernelHandler& handler, const std::optional<GpuExpectation>& expected_gpu)
      : handler_(handler), expected_gpu_(expected_gpu) {}

  void record(const Record& r) {
    const RecordType type = r.type();
    if (type == RecordType::Kernel) return begin_kernel(r);
    std::optional<std::string_view> kernel_field, cta_field;
    const std::optional<uint32_t> id = r.kernel_and_place(kernel_field, cta_field);
    if (!id) {
      end_kernel();
      return type == RecordType::Memcpy ? handler_.memcpy(r) : handler_.other(r);
    }
    Kernel& k = open_kernel(*id, r);
    if (type == RecordType::Insts) return insts(k, r);
    if (type == RecordType::Cta) return cta(k, r, cta_field);
    if (expected_gpu_) check_record_gpu(r, *expected_gpu_);
    check_attached_counts(k, r);
    k.attached_.push_back(r);
    handler_.attached(k, r);
  }

  void end_kernel() {
    if (!open_) return;
    handler_.end_kernel(*open_);
    open_.reset();
  }

 private:
  void begin_kernel(const Record& r) {
    end_kernel();
    KernelInfo info = decode<KernelInfo>(r);
    if (!seen_.insert(info.id).second)
      fail_input(r.where(), "kernel " + std::to_string(info.id) + " appears twice in the stream");
    open_.emplace(std::move(info), r.where());
    handler_.begin_kernel(*open_, r);
  }

  Kernel& open_kernel(uint32_t id, const Record& r) {
    if (open_ && open_->id() == id) return *open_;
    const std::string& name = r.type_name();
    const bool vowel = !name.empty() && std::string_view("aeiou").find(name[0]) != std::string_view::npos;
    const std::string article = vowel ? "an " : "a ";
    const std::string what = article + name + " record for kernel " + std::to_string(id);
    if (seen_.count(id))
      fail_input(r.where(), what + " after a later kernel's or an unrelated record: every record about a kernel "
                                   "comes before the next one starts (formats/STREAM.md, Order)");
    fail_input(r.where(), what + " before that kernel's kernel record");
  }

  void insts(Kernel& k, const Record& r) {
    InstTable slice = decode<InstTable>(r);
    check_slice_continues(slice, k.table_.size(), r.where());
    k.table_.insert(k.table_.end(), slice.insts.begin(), slice.insts.end());
    handler_.insts(k, slice, r);
  }

  void cta(Kernel& k, const Record& r, const std::optional<std::string_view>& raw) {
    if (!raw) fail_input(r.where(), "field 'cta' is missing");
    const auto v = raw_uint3(*raw);
    if (!v || (*v)[0] > UINT32_MAX || (*v)[1] > UINT32_MAX || (*v)[2] > UINT32_MAX)
      fail_input(r.where(), "field 'cta' needs 3 values");
    const Dim3 where_in_grid{uint32_t((*v)[0]), uint32_t((*v)[1]), uint32_t((*v)[2])};
    const uint64_t index = k.linear_index(where_in_grid, r.where());
    if (!k.cta_indices_.insert(index))
      fail_input(r.where(), "CTA " + std::to_string(index) + " of " + k.label() + " appears twice");
    ++k.ctas_seen_;
    handler_.cta(k, CtaRecord(r, k, where_in_grid, index));
  }

  KernelHandler& handler_;
  const std::optional<GpuExpectation>& expected_gpu_;
  std::optional<Kernel> open_;
  std::set<uint32_t> seen_;  // kernel ids of this member
};

void read_kernels(Reader& reader, KernelHandler& handler) {
  reader.accept_members();
  const auto& expected = reader.expected_gpu();
  do {
    const Header& header = reader.header();
    if (expected) check_gpu_model(header, *expected, reader.name());
    handler.begin_member(header, reader.member());
    KernelAssembler assembler(handler, expected);
    Record r;
    while (reader.next(r)) assembler.record(r);
    assembler.end_kernel();
    handler.end_member(reader.member());
  } while (reader.next_member());
}

}  // namespace sasskit::stream
