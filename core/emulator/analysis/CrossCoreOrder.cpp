// SPDX-License-Identifier: MIT
#include "core/emulator/analysis/CrossCoreOrder.h"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

namespace kwb::sim {

using namespace kwb_sim;

namespace {

// Cross-core flags per core on A2/A3 (runtime/CrossCore.cpp refuses larger ids).
constexpr std::int32_t kFlags = 16;

enum class EventKind : std::uint8_t { Unordered, Set, Wait, Barrier, IbSet, IbWait };

struct Event {
  EventKind kind = EventKind::Unordered;
  std::int32_t group = -1;   // Set: its raise group; Barrier: its barrier group (-1: not a participant)
  std::int32_t flag = -1;    // Wait: the flag id
  std::uint64_t ibFlag = 0;  // IbSet/IbWait: the GM address of the flag word
};
// An IBSet/IBWait flag (one GM word): a level, not a counter. A wait is ordered after the first set of
// the flag only when one process ever sets it (with several, which set the wait saw is not recorded).
struct IbFlag {
  std::int32_t setter = -1;  // -1: none seen, -2: several processes set it
  bool fired = false;
  std::vector<std::uint32_t> clock;
};

// One kind of set: the processes that must all set before a raise, and the processes it raises.
struct RaiseGroup {
  std::vector<std::uint32_t> setters;
  std::vector<std::uint32_t> receivers;
  std::map<std::uint32_t, std::uint32_t> setsBy;  // setter -> sets replayed so far
  std::vector<std::vector<std::uint32_t>> raiseClock;
  std::vector<std::vector<SetRecord>> raiseSets;  // per raise: the (process, record) of each set in it
  std::vector<std::uint32_t> contributions;
  std::uint32_t fired = 0;
};

struct BarrierGroup {
  std::vector<std::uint32_t> members;
  std::vector<std::vector<std::uint32_t>> clock;  // per barrier instance: the join of the arrivals
  std::vector<std::uint32_t> arrived;
};

struct ProcMeta {
  bool aic = false;
  std::int32_t block = 0;
};

void join(std::vector<std::uint32_t>& into, const std::vector<std::uint32_t>& other) {
  for (std::size_t k = 0; k < into.size() && k < other.size(); ++k) into[k] = std::max(into[k], other[k]);
}

class Replay {
 public:
  Replay(const LaunchTrace& lt) : lt_(lt), procs_(static_cast<std::uint32_t>(lt.blocks.size())) {
    mix_ = lt.coresPerBlock > 1;
    meta_.resize(procs_);
    for (std::uint32_t p = 0; p < procs_; ++p)
      meta_[p] = {mix_ && lt.blocks[p].core == 1, lt.blocks[p].block};
    counterSource_.assign(static_cast<std::size_t>(procs_) * kFlags, -1);
    events_.resize(procs_);
    eventRecord_.resize(procs_);
    for (std::uint32_t p = 0; p < procs_; ++p)
      for (std::size_t k = 0; k < lt.blocks[p].instrs.size(); ++k)
        if (isOrderingEvent(lt, lt.blocks[p].instrs[k])) {
          events_[p].push_back(classify(p, lt.blocks[p].instrs[k]));
          eventRecord_[p].push_back(static_cast<std::uint32_t>(k));
        }
    for (std::uint32_t p = 0; p < procs_; ++p)
      for (const Event& e : events_[p])
        if (e.kind == EventKind::IbSet) {
          std::int32_t& setter = ib_[e.ibFlag].setter;
          setter = setter == -1 || setter == static_cast<std::int32_t>(p) ? static_cast<std::int32_t>(p) : -2;
        }
  }

  // Called for every wait the replay matched to a raise: the waiting process, its record, and the sets
  // (process, record) that made the raise.
  std::function<void(std::uint32_t, std::uint32_t, const std::vector<SetRecord>&)> onRelease;

  const std::vector<Event>& events(std::uint32_t p) const { return events_[p]; }

  // Runs every process to its end; `onSegment(p, s, clock)` is called as process p enters segment s.
  template <typename F>
  void run(F onSegment) {
    std::vector<std::size_t> cursor(procs_, 0);
    std::vector<std::vector<std::uint32_t>> clock(procs_, std::vector<std::uint32_t>(procs_, 0));
    std::vector<std::map<std::int32_t, std::uint32_t>> barriersDone(procs_);
    std::vector<bool> arrived(procs_, false);
    std::vector<std::uint32_t> waitsDone(static_cast<std::size_t>(procs_) * kFlags, 0);
    for (std::uint32_t p = 0; p < procs_; ++p) onSegment(p, 0, clock[p]);
    const auto finish = [&](std::uint32_t p) {
      ++cursor[p];
      clock[p][p] = static_cast<std::uint32_t>(cursor[p]);
      onSegment(p, static_cast<std::uint32_t>(cursor[p]), clock[p]);
    };
    // One step of process p; false when it must wait for another process.
    const auto step = [&](std::uint32_t p) {
      const Event& e = events_[p][cursor[p]];
      std::vector<std::uint32_t>& mine = clock[p];
      if (e.kind == EventKind::Set) {
        RaiseGroup& g = raises_[static_cast<std::size_t>(e.group)];
        const std::uint32_t k = g.setsBy[p]++;
        if (g.raiseClock.size() <= k) {
          g.raiseClock.resize(k + 1, std::vector<std::uint32_t>(procs_, 0));
          g.raiseSets.resize(k + 1);
          g.contributions.resize(k + 1, 0);
        }
        g.raiseSets[k].push_back(SetRecord{p, eventRecord_[p][cursor[p]]});
        mine[p] = static_cast<std::uint32_t>(cursor[p] + 1);
        join(g.raiseClock[k], mine);
        // Raises fire in order: the k-th needs the k-th set of every setter.
        if (++g.contributions[k] == g.setters.size())
          while (g.fired < g.contributions.size() && g.contributions[g.fired] == g.setters.size()) ++g.fired;
      } else if (e.kind == EventKind::Wait) {
        const std::size_t c = static_cast<std::size_t>(p) * kFlags + static_cast<std::size_t>(e.flag);
        const std::int32_t source = counterSource_[c];
        if (source >= 0) {
          const RaiseGroup& g = raises_[static_cast<std::size_t>(source)];
          if (waitsDone[c] >= g.fired) return false;
          if (onRelease) onRelease(p, eventRecord_[p][cursor[p]], g.raiseSets[waitsDone[c]]);
          join(mine, g.raiseClock[waitsDone[c]++]);
        }
      } else if (e.kind == EventKind::IbSet) {
        IbFlag& f = ib_[e.ibFlag];
        if (!f.fired) {
          mine[p] = static_cast<std::uint32_t>(cursor[p] + 1);
          f.clock = mine;
          f.fired = true;
        }
      } else if (e.kind == EventKind::IbWait) {
        const auto it = ib_.find(e.ibFlag);
        if (it != ib_.end() && it->second.setter >= 0) {
          if (!it->second.fired) return false;
          join(mine, it->second.clock);
        }
      } else if (e.kind == EventKind::Barrier && e.group >= 0) {
        BarrierGroup& g = barriers_[static_cast<std::size_t>(e.group)];
        const std::uint32_t k = barriersDone[p][e.group];
        if (g.clock.size() <= k) {
          g.clock.resize(k + 1, std::vector<std::uint32_t>(procs_, 0));
          g.arrived.resize(k + 1, 0);
        }
        if (!arrived[p]) {
          mine[p] = static_cast<std::uint32_t>(cursor[p] + 1);
          join(g.clock[k], mine);
          ++g.arrived[k];
          arrived[p] = true;
        }
        if (g.arrived[k] < g.members.size()) return false;
        join(mine, g.clock[k]);
        arrived[p] = false;
        ++barriersDone[p][e.group];
      }
      finish(p);
      return true;
    };
    for (;;) {
      bool progress = false, pending = false;
      for (std::uint32_t p = 0; p < procs_; ++p) {
        while (cursor[p] < events_[p].size() && step(p)) progress = true;
        pending = pending || cursor[p] < events_[p].size();
      }
      if (!pending) return;
      if (progress) continue;
      // Nothing can proceed (a hang, or a trace cut short): the first stuck process goes on, unordered.
      for (std::uint32_t p = 0; p < procs_; ++p)
        if (cursor[p] < events_[p].size()) {
          arrived[p] = false;
          finish(p);
          break;
        }
    }
  }

 private:
  Event classify(std::uint32_t p, const Instr& i) {
    Event e;
    const std::string& api = lt_.str(i.api);
    const ProcMeta& me = meta_[p];
    if (api == "SyncAll") {
      e.kind = EventKind::Barrier;
      const bool aivOnly = mix_ && i.syncId == 1;
      const std::uint32_t limit = mix_ || i.count == 0 ? procs_ : i.count;
      const bool member = mix_ ? (!aivOnly || !me.aic) : static_cast<std::uint32_t>(me.block) < limit;
      if (member) e.group = barrierGroup(aivOnly, limit);
      return e;
    }
    if (api == "IBSet" || api == "IBWait") {
      e.kind = api == "IBSet" ? EventKind::IbSet : EventKind::IbWait;
      e.ibFlag = i.gmAddr;
      return e;
    }
    if (i.syncId < 0 || i.syncId >= kFlags) return e;
    if (api == "CrossCoreWaitFlag") {
      e.kind = EventKind::Wait;
      e.flag = i.syncId;
      return e;
    }
    const std::uint32_t mode = i.count;
    std::vector<std::uint32_t> setters, receivers;
    std::tuple<std::uint32_t, bool, std::int32_t, std::int32_t> key{mode, me.aic, -1, i.syncId};
    const auto aivsOf = [&](std::int32_t block) {
      std::vector<std::uint32_t> out;
      for (std::uint32_t q = 0; q < procs_; ++q)
        if (!meta_[q].aic && meta_[q].block == block) out.push_back(q);
      return out;
    };
    if (mode == 0) {
      for (std::uint32_t q = 0; q < procs_; ++q)
        if (meta_[q].aic == me.aic) setters.push_back(q);
      receivers = setters;
    } else if (mode == 1 && !me.aic) {
      std::get<2>(key) = me.block;
      setters = mix_ ? aivsOf(me.block) : std::vector<std::uint32_t>{p};
      receivers = setters;
    } else if (mode == 2 && mix_) {
      std::get<2>(key) = me.block;
      if (me.aic) {
        setters = {p};
        receivers = aivsOf(me.block);
      } else {
        setters = aivsOf(me.block);
        for (std::uint32_t q = 0; q < procs_; ++q)
          if (meta_[q].aic && meta_[q].block == me.block) receivers.push_back(q);
      }
    } else {
      return e;  // a mode the runtime refuses: it ordered nothing
    }
    e.kind = EventKind::Set;
    auto it = raiseIndex_.find(key);
    if (it == raiseIndex_.end()) {
      it = raiseIndex_.emplace(key, static_cast<std::int32_t>(raises_.size())).first;
      RaiseGroup g;
      g.setters = std::move(setters);
      g.receivers = std::move(receivers);
      for (std::uint32_t r : g.receivers) {
        std::int32_t& source = counterSource_[static_cast<std::size_t>(r) * kFlags + i.syncId];
        source = source == -1 || source == it->second ? it->second : -2;
      }
      raises_.push_back(std::move(g));
    }
    e.group = it->second;
    return e;
  }

  std::int32_t barrierGroup(bool aivOnly, std::uint32_t limit) {
    const auto key = std::make_pair(aivOnly, limit);
    auto it = barrierIndex_.find(key);
    if (it != barrierIndex_.end()) return it->second;
    BarrierGroup g;
    for (std::uint32_t q = 0; q < procs_; ++q)
      if (mix_ ? (!aivOnly || !meta_[q].aic) : static_cast<std::uint32_t>(meta_[q].block) < limit)
        g.members.push_back(q);
    barriers_.push_back(std::move(g));
    return barrierIndex_.emplace(key, static_cast<std::int32_t>(barriers_.size() - 1)).first->second;
  }

  const LaunchTrace& lt_;
  std::uint32_t procs_;
  bool mix_ = false;
  std::vector<ProcMeta> meta_;
  std::vector<std::vector<Event>> events_;
  std::vector<std::vector<std::uint32_t>> eventRecord_;  // per process: the record index of each event
  std::vector<RaiseGroup> raises_;
  std::map<std::tuple<std::uint32_t, bool, std::int32_t, std::int32_t>, std::int32_t> raiseIndex_;
  // Per (receiver, flag): the raise group that raises it, -1 none, -2 more than one (orders nothing).
  std::vector<std::int32_t> counterSource_;
  std::vector<BarrierGroup> barriers_;
  std::map<std::pair<bool, std::uint32_t>, std::int32_t> barrierIndex_;
  std::map<std::uint64_t, IbFlag> ib_;
};

}  // namespace

std::vector<FlagRelease> flagReleases(const LaunchTrace& lt) {
  std::vector<FlagRelease> out;
  Replay replay(lt);
  replay.onRelease = [&](std::uint32_t p, std::uint32_t record, const std::vector<SetRecord>& sets) {
    out.push_back(FlagRelease{p, record, sets});
  };
  replay.run([](std::uint32_t, std::uint32_t, const std::vector<std::uint32_t>&) {});
  return out;
}

bool isOrderingEvent(const LaunchTrace& lt, const Instr& i) {
  if (i.sync == SyncKind::Barrier) {
    const std::string& api = lt.str(i.api);
    return api == "SyncAll" || api == "CrossCoreWaitFlag";
  }
  if (i.sync != SyncKind::None) return false;
  const std::string& api = lt.str(i.api);
  return api == "CrossCoreSetFlag" || api == "IBSet" || api == "IBWait";
}

bool needsCrossCoreOrder(const LaunchTrace& lt) {
  if (lt.coresPerBlock > 1) return true;
  for (const BlockTrace& bt : lt.blocks)
    for (const Instr& i : bt.instrs)
      if ((i.sync == SyncKind::Barrier || i.sync == SyncKind::None) && isOrderingEvent(lt, i) &&
          lt.str(i.api) != "SyncAll")
        return true;
  return false;
}

CrossCoreOrder CrossCoreOrder::replay(const LaunchTrace& lt,
                                      const std::vector<std::vector<std::uint32_t>>& segments,
                                      std::uint64_t maxEntries) {
  CrossCoreOrder o;
  o.procs_ = static_cast<std::uint32_t>(lt.blocks.size());
  o.segments_ = segments;
  o.segments_.resize(o.procs_);
  std::uint64_t slots = 0;
  for (const auto& s : o.segments_) slots += s.size();
  if (slots * o.procs_ > maxEntries) return o;
  o.slotOf_.resize(o.procs_);
  std::uint32_t next = 0;
  for (std::uint32_t p = 0; p < o.procs_; ++p)
    for (std::size_t k = 0; k < o.segments_[p].size(); ++k) o.slotOf_[p].push_back(next++);
  o.clocks_.assign(static_cast<std::size_t>(slots) * o.procs_, 0);
  Replay replay(lt);
  replay.run([&](std::uint32_t p, std::uint32_t s, const std::vector<std::uint32_t>& clock) {
    const auto& wanted = o.segments_[p];
    const auto it = std::lower_bound(wanted.begin(), wanted.end(), s);
    if (it == wanted.end() || *it != s) return;
    const std::uint32_t slot = o.slotOf_[p][static_cast<std::size_t>(it - wanted.begin())];
    std::copy(clock.begin(), clock.end(), o.clocks_.begin() + static_cast<std::ptrdiff_t>(slot) * o.procs_);
  });
  o.known_ = true;
  return o;
}

const std::uint32_t* CrossCoreOrder::clock(std::uint32_t p, std::uint32_t s) const {
  if (p >= procs_) return nullptr;
  const auto& wanted = segments_[p];
  const auto it = std::lower_bound(wanted.begin(), wanted.end(), s);
  if (it == wanted.end() || *it != s) return nullptr;
  return clocks_.data() +
         static_cast<std::size_t>(slotOf_[p][static_cast<std::size_t>(it - wanted.begin())]) * procs_;
}

bool CrossCoreOrder::happensBefore(std::uint32_t pa, std::uint32_t sa, std::uint32_t pb,
                                   std::uint32_t sb) const {
  const std::uint32_t* c = clock(pb, sb);
  return c != nullptr && pa < procs_ && c[pa] > sa;
}

bool CrossCoreOrder::ordered(std::uint32_t pa, std::uint32_t sa, std::uint32_t pb, std::uint32_t sb) const {
  if (!known_) return false;
  if (pa == pb) return true;
  return happensBefore(pa, sa, pb, sb) || happensBefore(pb, sb, pa, sa);
}

}  // namespace kwb::sim
