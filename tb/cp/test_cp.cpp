// RTL vs model: command processor (rtl/cp/cp.sv vs cpp_model/cp/command_processor).
// The CP reads its ring through the DRAM model (random latency), its draw output sees random
// back-pressure and `pipe_idle_i` is randomly low (EOP fences must wait for it). Checked: every
// draw packet, and afterwards every host-visible register.
#define CATCH_CONFIG_MAIN
#include "Vcp.h"
#include "common/command_writer.h"
#include "cp/command_processor.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

constexpr uint32_t kRingBase = 0x00100000u;

struct CpRun {
  std::vector<DrawPkt> draws;
  std::string report;
  bool ok = true;
};

class CpBench {
 public:
  CpBench(Memory& mem, uint64_t seed, double stall)
      : mem_(mem), ctx_(std::make_unique<VerilatedContext>()), rng_(seed), stall_(stall),
        dram_(mem, [&] {
          tb::DramConfig d;
          d.latency = 200;
          d.jitter = 60;
          d.seed = seed;
          return d;
        }()) {
    ctx_->fatalOnError(false);
    ctx_->randReset(2);
    ctx_->randSeed(static_cast<int>(seed & 0x7fffffff));
    dut_ = std::make_unique<Vcp>(ctx_.get(), "TOP");
    dut_->rst_ni = 0;
    dut_->clk_i = 0;
    dut_->reg_valid_i = 0;
    dut_->pipe_idle_i = 1;
    dut_->eval();
    for (int i = 0; i < 3; ++i) clock();
    dut_->rst_ni = 1;
    dut_->eval();
  }

  void reg_write(uint32_t idx, uint32_t v) {
    dut_->reg_valid_i = 1;
    dut_->reg_we_i = 1;
    dut_->reg_addr_i = idx;
    dut_->reg_wdata_i = v;
    cycle();
    dut_->reg_valid_i = 0;
    dut_->reg_we_i = 0;
  }
  uint32_t reg_read(uint32_t idx) {
    dut_->reg_addr_i = idx;
    dut_->eval();
    return dut_->reg_rdata_o;
  }

  // Runs until the CP can do nothing more: halted, error, or ring drained and idle.
  void run(std::vector<DrawPkt>& draws, std::string& err) {
    uint64_t quiet = 0;
    for (uint64_t n = 0; n < 2'000'000; ++n) {
      const bool fired = cycle(&draws);
      if (ctx_->gotError()) {
        err = "assertion failed at cycle " + std::to_string(n);
        return;
      }
      quiet = fired ? 0 : quiet + 1;
      const uint32_t st = reg_read(REG_STATUS);
      const bool stopped = (st >> STATUS_HALTED & 1u) || (st >> STATUS_ERROR & 1u) ||
                           (st >> STATUS_RING_EMPTY & 1u);
      if (stopped && dut_->idle_o && dram_.outstanding() == 0 && quiet > 300) return;
    }
    err = "NO PROGRESS: the CP did not finish within 2M cycles";
  }

 private:
  void clock() {
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->eval();
  }
  bool cycle(std::vector<DrawPkt>* draws = nullptr) {
    std::uniform_real_distribution<double> u(0, 1);
    dut_->out_ready_i = u(rng_) >= stall_;
    dut_->pipe_idle_i = u(rng_) >= stall_;
    dut_->mem_req_ready_i = dram_.req_ready();
    dut_->mem_rsp_valid_i = dram_.rsp_valid();
    tb::pack_sig(dram_.rsp(), dut_->mem_rsp_i);
    dut_->eval();
    const bool out_fire = dut_->out_valid_o && dut_->out_ready_i;
    const bool req_fire = dut_->mem_req_valid_o && dut_->mem_req_ready_i;
    const bool rsp_fire = dut_->mem_rsp_valid_i && dut_->mem_rsp_ready_o;
    const MemReq req = tb::unpack_sig<MemReq>(dut_->mem_req_o);
    if (out_fire && draws) draws->push_back(tb::unpack_sig<DrawPkt>(dut_->out_o));
    dut_->clk_i = 1;
    dut_->eval();
    dram_.clock(req_fire, req, rsp_fire);
    dut_->clk_i = 0;
    dut_->eval();
    return out_fire || req_fire || rsp_fire;
  }

  Memory& mem_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vcp> dut_;
  std::mt19937_64 rng_;
  double stall_;
  tb::DramConfig dcfg_;
  tb::DramModel dram_;
};

// One host submission: commands placed in the ring, then the register writes that start them.
// Applied only after the previous submission has finished, as a host reusing ring space would.
struct Submission {
  std::vector<uint32_t> cmds;
  uint32_t ring_size = 0x10000;
  uint32_t start = 0;
  bool resume = false;  // only WPTR and CONTROL (the ring is already configured)
  std::vector<RegWrite> regs(Memory& mem) const {
    std::vector<RegWrite> all = place_in_ring(mem, kRingBase, ring_size, cmds, start), out;
    if (!resume) {
      // Reserved bits are not stored: both sides must read back 3 and 1.
      out.push_back({REG_IRQ_ENABLE, 0xFFFFFFFFu});
      out.push_back({REG_CONTROL, 0xFFFFFFFEu});
    }
    for (const auto& rw : all) {
      if (!resume || rw.first == REG_RING_WPTR || rw.first == REG_CONTROL) out.push_back(rw);
    }
    return out;
  }
};

// Runs the same submissions on the model and the RTL and compares draws and registers.
void compare(const std::string& test, const Memory& mem, const std::vector<Submission>& subs,
             uint64_t seed) {
  for (const double stall : {0.0, 0.4}) {
    Memory model_mem = mem, rtl_mem = mem;
    model::CommandProcessor cp(model_mem);
    CpBench rtl(rtl_mem, seed, stall);
    std::vector<DrawPkt> want, got;
    std::string err;
    for (const auto& sub : subs) {
      const auto regs = sub.regs(model_mem);
      sub.regs(rtl_mem);
      for (const auto& [i, v] : regs) {
        cp.reg_write(i, v);
        rtl.reg_write(i, v);
      }
      while (auto d = cp.next_draw()) want.push_back(*d);
      rtl.run(got, err);
      INFO(test << " stall=" << stall << " seed=" << seed << ": " << err);
      REQUIRE(err.empty());
    }
    INFO(test << " stall=" << stall << " seed=" << seed);
    REQUIRE(got.size() == want.size());
    std::printf("  %s stall=%.1f: %zu draws, RPTR=0x%x, STATUS=0x%x\n", test.c_str(), stall,
                got.size(), cp.reg_read(REG_RING_RPTR), cp.reg_read(REG_STATUS));
    for (size_t k = 0; k < want.size(); ++k) {
      std::vector<FieldDiff> d;
      want[k].diff(got[k], "", d);
      for (const auto& f : d) {
        INFO("draw #" << k << " " << f.field << " expected=" << f.expected_hex
                      << " actual=" << f.actual_hex);
        CHECK(false);
      }
    }
    for (uint32_t r : {REG_ID, REG_CONTROL, REG_STATUS, REG_RING_BASE, REG_RING_SIZE,
                       REG_RING_WPTR, REG_RING_RPTR, REG_ERROR_CAUSE, REG_ERROR_ADDR,
                       REG_IRQ_STATUS, REG_IRQ_ENABLE}) {
      uint32_t m = cp.reg_read(r), a = rtl.reg_read(r);
      if (r == REG_STATUS) {  // PIPE_BUSY is timing; compare the rest
        m &= ~(1u << STATUS_PIPE_BUSY);
        a &= ~(1u << STATUS_PIPE_BUSY);
      }
      INFO("register " << r << " expected=" << bits::hex(m) << " actual=" << bits::hex(a));
      CHECK(m == a);
    }
    for (uint32_t f = 0; f < NUM_FENCES; ++f) {
      INFO("fence " << f);
      CHECK(cp.reg_read(REG_FENCE0 + f) == rtl.reg_read(REG_FENCE0 + f));
    }
  }
}

std::vector<uint32_t> random_stream(tb::PrimGen& g, int n) {
  CommandWriter w;
  for (int i = 0; i < n; ++i) {
    switch (g.range(0, 5)) {
      case 0: {
        const uint32_t first = static_cast<uint32_t>(g.range(0, NUM_STATE - 1));
        const uint32_t cnt = static_cast<uint32_t>(g.range(1, NUM_STATE - first));
        std::vector<uint32_t> v;
        for (uint32_t k = 0; k < cnt; ++k) v.push_back(static_cast<uint32_t>(g.bits64()));
        w.set_state(first, v);
        break;
      }
      case 1: w.nop(static_cast<uint32_t>(g.range(0, 5))); break;
      case 2: w.write_reg(static_cast<uint32_t>(g.range(0, 15)), static_cast<uint32_t>(g.bits64()), g.chance(0.5)); break;
      default: w.draw(static_cast<uint32_t>(g.bits64()), static_cast<uint32_t>(g.bits64())); break;
    }
  }
  w.end();
  return w.dwords();
}

}  // namespace

TEST_CASE("cp: random command streams") {
  const uint64_t seed = tb::announce_seed("rtl_cp");
  tb::PrimGen g(seed);
  for (int k = 0; k < 4; ++k) {
    Submission sub;
    sub.cmds = random_stream(g, 300);
    compare("cp.random#" + std::to_string(k), Memory{}, {sub}, seed + k);
  }
}

TEST_CASE("cp: ring wrap-around and resume after END") {
  const uint64_t seed = tb::announce_seed("rtl_cp");
  tb::PrimGen g(seed);
  const uint32_t size = 1024;
  CommandWriter a;
  a.nop(200).set_state(ST_COLOR, 0x11223344u).draw(1, 2).end();
  // The second submission starts where the first ended and wraps past the ring's end over
  // the space the first one used.
  CommandWriter b;
  b.nop(10);
  for (int i = 0; i < 20; ++i) b.set_state(ST_RT_SIZE, 0x01000100u + i).draw(i, 3 * i);
  b.write_reg(3, 0xabcd, true).end();
  CommandWriter c;  // and a third wraps again
  for (int i = 0; i < 40; ++i) c.draw(i, i).write_reg(i & 15, i, i & 1);
  c.end();
  Submission s1{a.dwords(), size, 0, false};
  Submission s2{b.dwords(), size, a.size_bytes(), true};
  Submission s3{c.dwords(), size, (a.size_bytes() + b.size_bytes()) % size, true};
  (void)g;
  compare("cp.wrap", Memory{}, {s1, s2, s3}, seed);
}

TEST_CASE("cp: every error cause stops at the failing command") {
  const uint64_t seed = tb::announce_seed("rtl_cp");
  const std::vector<std::pair<const char*, uint32_t>> bad = {
      {"bad-opcode", CommandWriter::header(0x7e, 0, 0)},
      {"draw-len", CommandWriter::header(OP_DRAW, 0, 3)},
      {"write-reg-len", CommandWriter::header(OP_WRITE_REG, 0, 2)},
      {"end-len", CommandWriter::header(OP_END, 0, 1)},
      {"state-overflow", CommandWriter::header(OP_SET_STATE, NUM_STATE - 2, 3)},
      {"state-index", CommandWriter::header(OP_SET_STATE, 0x800, 1)},
      {"fence-index", CommandWriter::header(OP_WRITE_REG, 0x10, 1)},
  };
  for (const auto& [name, hdr] : bad) {
    CommandWriter w;
    w.set_state(ST_COLOR, 0xff).draw(0, 3).write_reg(1, 7, false).raw(hdr);
    for (int i = 0; i < 4; ++i) w.raw(0x02000002u);  // payload-looking dwords after the error
    w.draw(0, 3).end();
    Submission sub;
    sub.cmds = w.dwords();
    compare(std::string("cp.error.") + name, Memory{}, {sub}, seed);
  }
}
