// The framing of a FileJournal stream (internal to the persistence area), one
// definition for writer and reader. A file is a header, then records:
//   header: "MRJL" | version u32 LE | base sequence u64 LE | CRC32 of the 16 bytes before
//   record: payload length u32 LE | sequence u64 LE | CRC32 of (sequence bytes + payload) | payload
// The base sequence is the sequence before the first record, so prefix
// compaction can drop every record without sequence numbers starting over.
// Sequence numbers increase along the file; a repair may leave gaps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "mailroom/journal.hpp"

namespace mailroom::detail {

inline constexpr std::uint32_t kJournalVersion = 1;
inline constexpr std::size_t kFileHeaderSize = 20;
inline constexpr std::size_t kRecordHeaderSize = 16;
// Larger lengths are damage, not a reason to allocate gigabytes.
inline constexpr std::uint32_t kMaxRecordPayload = 64u * 1024u * 1024u;
// Reads go through a buffer of about this size (records may make it larger).
inline constexpr std::size_t kScanChunk = 1u << 20;

std::string encode_file_header(std::uint64_t base_sequence);
std::string encode_record(std::uint64_t sequence, std::string_view payload);

struct JournalScan {
  JournalReadResult read;           // intact records + every damaged stretch
  bool has_header = false;          // a valid file header was found
  std::uint64_t base_sequence = 0;  // from the header (0 without one)
  std::uint64_t last_sequence = 0;  // of the last intact record, else base_sequence
  // The highest sequence a damaged stretch at the end of the file may have
  // held (last_sequence when the file ends intact). Records of one writer
  // follow the last intact one with consecutive numbers and each takes at
  // least a record header, so a tail of L damaged bytes held at most
  // ceil(L / 16) of them; a complete first header's own number counts too.
  // The next append goes above it, so no damaged record's number is reused.
  std::uint64_t tail_high_water = 0;
  std::uint64_t size = 0;  // bytes scanned
};

// Reads `length` bytes from `offset` (fewer only at the end).
using JournalByteSource = std::function<std::string(std::uint64_t offset, std::size_t length)>;

// Scans `size` bytes in bounded chunks. After a damaged stretch it
// resynchronises at the next intact frame whose sequence number goes on, as
// LevelDB's log reader does, so nothing intact after damage is lost. Never
// throws on any content; an empty input is an empty, undamaged stream.
JournalScan scan_journal(std::uint64_t size, const JournalByteSource& source);
JournalScan scan_journal(std::string_view bytes);

}  // namespace mailroom::detail
