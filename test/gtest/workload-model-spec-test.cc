// Parameter counts of the model presets, derived by hand from the published dimensions.
#include "ns3/workload-model-spec.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

TEST(WorkloadModelSpec, Llama3_8bHasThePapersParameterCount)
{
    WorkloadModelSpec m = WorkloadModelSpec::Preset("llama3-8b");
    // Attention: Q and O are 4096 x 4096; K and V are 4096 x (8 KV heads x 128) = 4096 x 1024.
    const uint64_t attention = 2ull * 4096 * 4096 + 2ull * 4096 * 1024; // 41,943,040
    // SwiGLU MLP: three 4096 x 14336 matrices.
    const uint64_t mlp = 3ull * 4096 * 14336; // 176,160,768
    // Two RMSNorms of 4096.
    const uint64_t layer = attention + mlp + 2 * 4096;
    EXPECT_EQ(layer, 218112000ull); // the reference note's per-layer count
    EXPECT_EQ(m.LayerParams(), layer);
    // Untied embedding and output head (128256 x 4096 each) plus the final norm.
    const uint64_t total = 32 * layer + 2ull * 128256 * 4096 + 4096;
    EXPECT_EQ(total, 8030261248ull);
    EXPECT_EQ(m.TotalParams(), 8030261248ull);
    EXPECT_EQ(m.HeadDim(), 128u);
}

TEST(WorkloadModelSpec, LargerLlamasMatchTheirPublishedSizes)
{
    // Llama3-70B: 80 x (2*8192^2 + 2*8192*1024 + 3*8192*28672 + 2*8192) + 2*128256*8192 + 8192
    const uint64_t layer70 = 2ull * 8192 * 8192 + 2ull * 8192 * 1024 + 3ull * 8192 * 28672 + 16384;
    EXPECT_EQ(WorkloadModelSpec::Preset("llama3-70b").TotalParams(),
              80 * layer70 + 2ull * 128256 * 8192 + 8192); // 70,553,706,496
    EXPECT_EQ(80 * layer70 + 2ull * 128256 * 8192 + 8192, 70553706496ull);
    // Llama3.1-405B: 126 layers, h 16384, FFN 53248.
    const uint64_t layer405 =
        2ull * 16384 * 16384 + 2ull * 16384 * 1024 + 3ull * 16384 * 53248 + 32768;
    EXPECT_EQ(WorkloadModelSpec::Preset("llama3.1-405b").TotalParams(),
              126 * layer405 + 2ull * 128256 * 16384 + 16384);
    EXPECT_EQ(126 * layer405 + 2ull * 128256 * 16384 + 16384, 405853388800ull);
}

TEST(WorkloadModelSpec, Gpt3HasBiasesTiedEmbeddingsAndPositions)
{
    WorkloadModelSpec m = WorkloadModelSpec::Preset("gpt3-175b");
    const uint64_t h = 12288;
    // Per layer 12 h^2 + 13 h: QKV+O weights 4h^2 and biases 4h, MLP 8h^2 + 5h, 2 LayerNorms 4h.
    EXPECT_EQ(m.LayerParams(), 12 * h * h + 13 * h);
    // Token (50257) and position (2048) embeddings, tied head, final LayerNorm 2h.
    const uint64_t total = 96 * (12 * h * h + 13 * h) + (50257 + 2048) * h + 2 * h;
    EXPECT_EQ(m.TotalParams(), total);
    EXPECT_NEAR(double(total), 175e9, 0.5e9); // "175B"
}

TEST(WorkloadModelSpec, MixtralCountsEveryExpertAndTheRouter)
{
    WorkloadModelSpec m = WorkloadModelSpec::Preset("mixtral-8x7b");
    EXPECT_TRUE(m.IsMoe());
    EXPECT_EQ(m.topK, 2u);
    const uint64_t layer = 41943040ull + 8 * 176160768ull + 4096 * 8 + 2 * 4096;
    EXPECT_EQ(m.LayerParams(), layer);
    // 46,702,792,704: Mixtral 8x7B's published "46.7B".
    EXPECT_EQ(m.TotalParams(), 32 * layer + 2ull * 32000 * 4096 + 4096);
    EXPECT_EQ(m.TotalParams(), 46702792704ull);
}

TEST(WorkloadModelSpec, UnknownPresetsAndBadDimensionsAreClearErrors)
{
    EXPECT_THROW(WorkloadModelSpec::Preset("llama9"), std::invalid_argument);
    EXPECT_THROW(WorkloadGpuSpec::Preset("tpu"), std::invalid_argument);
    WorkloadModelSpec m = WorkloadModelSpec::Preset("llama3-8b");
    m.heads = 30; // 4096 is not a multiple of 30
    EXPECT_THROW(m.Check(), std::invalid_argument);
    m = WorkloadModelSpec::Preset("llama3-8b");
    m.topK = 2; // more experts per token than experts
    EXPECT_THROW(m.Check(), std::invalid_argument);
}

TEST(WorkloadModelSpec, GpuPresets)
{
    EXPECT_DOUBLE_EQ(WorkloadGpuSpec::Preset("A100").peakTflops, 312.0);
    EXPECT_DOUBLE_EQ(WorkloadGpuSpec::Preset("h100").peakTflops, 989.0);
    EXPECT_DOUBLE_EQ(WorkloadGpuSpec::Preset("h200").peakTflops, 989.0);
    EXPECT_GT(WorkloadGpuSpec::Preset("b200").peakTflops, 989.0);
}
