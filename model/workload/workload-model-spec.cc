/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-model-spec.h"

#include "ns3/log.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadModelSpec");

namespace
{

std::string
Lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return text;
}

std::string
Join(const std::vector<std::string>& names)
{
    std::string text;
    for (const auto& name : names)
    {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

WorkloadModelSpec
Llama(const std::string& name,
      uint32_t layers,
      uint32_t hidden,
      uint32_t heads,
      uint32_t ffn,
      uint32_t vocab)
{
    WorkloadModelSpec spec;
    spec.name = name;
    spec.layers = layers;
    spec.hidden = hidden;
    spec.heads = heads;
    spec.kvHeads = 8; // every Llama 3 size uses 8 KV heads
    spec.ffn = ffn;
    spec.vocab = vocab;
    return spec;
}

} // namespace

uint32_t
WorkloadModelSpec::HeadDim() const
{
    return heads == 0 ? 0 : hidden / heads;
}

uint64_t
WorkloadModelSpec::AttentionParams() const
{
    uint64_t h = hidden;
    uint64_t kv = uint64_t(kvHeads) * HeadDim();
    uint64_t weights = h * h * 2 + h * kv * 2; // Q and O are h x h; K and V are h x kv
    uint64_t bias = biases ? h * 2 + kv * 2 : 0;
    return weights + bias;
}

uint64_t
WorkloadModelSpec::ExpertParams() const
{
    uint64_t h = hidden;
    uint64_t f = ffn;
    if (gatedMlp)
    {
        return 3 * h * f + (biases ? 2 * f + h : 0);
    }
    return 2 * h * f + (biases ? f + h : 0);
}

uint64_t
WorkloadModelSpec::RouterParams() const
{
    return IsMoe() ? uint64_t(hidden) * experts : 0;
}

uint64_t
WorkloadModelSpec::NormParams() const
{
    return biases ? 2 * uint64_t(hidden) : hidden;
}

uint64_t
WorkloadModelSpec::LayerParams() const
{
    return AttentionParams() + uint64_t(experts) * ExpertParams() + RouterParams() +
           2 * NormParams();
}

uint64_t
WorkloadModelSpec::EmbeddingParams() const
{
    return (uint64_t(vocab) + positions) * hidden;
}

uint64_t
WorkloadModelSpec::HeadParams() const
{
    return NormParams() + (tiedEmbeddings ? 0 : uint64_t(vocab) * hidden);
}

uint64_t
WorkloadModelSpec::TotalParams() const
{
    return uint64_t(layers) * LayerParams() + EmbeddingParams() + HeadParams();
}

bool
WorkloadModelSpec::IsMoe() const
{
    return experts > 1;
}

void
WorkloadModelSpec::Check() const
{
    auto fail = [this](const std::string& what) {
        throw std::invalid_argument("model '" + name + "': " + what);
    };
    if (layers == 0 || hidden == 0 || heads == 0 || kvHeads == 0 || ffn == 0 || vocab == 0)
    {
        fail("layers, hidden, heads, kvHeads, ffn and vocab must all be > 0");
    }
    if (hidden % heads != 0)
    {
        fail("hidden (" + std::to_string(hidden) + ") must be a multiple of heads (" +
             std::to_string(heads) + ")");
    }
    if (heads % kvHeads != 0)
    {
        fail("heads (" + std::to_string(heads) + ") must be a multiple of kvHeads (" +
             std::to_string(kvHeads) + ")");
    }
    if (experts == 0 || topK == 0 || topK > experts)
    {
        fail("need 1 <= topK <= experts");
    }
}

WorkloadModelSpec
WorkloadModelSpec::Preset(const std::string& name)
{
    std::string key = Lower(name);
    if (key == "llama3-8b")
    {
        return Llama(key, 32, 4096, 32, 14336, 128256);
    }
    if (key == "llama3-70b")
    {
        return Llama(key, 80, 8192, 64, 28672, 128256);
    }
    if (key == "llama3.1-405b")
    {
        return Llama(key, 126, 16384, 128, 53248, 128256);
    }
    if (key == "gpt3-175b")
    {
        WorkloadModelSpec spec;
        spec.name = key;
        spec.layers = 96;
        spec.hidden = 12288;
        spec.heads = 96;
        spec.kvHeads = 96; // multi-head attention
        spec.ffn = 4 * 12288;
        spec.vocab = 50257;
        spec.gatedMlp = false;
        spec.biases = true;
        spec.tiedEmbeddings = true;
        spec.positions = 2048;
        return spec;
    }
    if (key == "mixtral-8x7b")
    {
        WorkloadModelSpec spec = Llama(key, 32, 4096, 32, 14336, 32000);
        spec.experts = 8;
        spec.topK = 2;
        return spec;
    }
    throw std::invalid_argument("unknown model '" + name + "' (known: " + Join(PresetNames()) +
                                ", or custom dimensions)");
}

std::vector<std::string>
WorkloadModelSpec::PresetNames()
{
    return {"llama3-8b", "llama3-70b", "llama3.1-405b", "gpt3-175b", "mixtral-8x7b"};
}

WorkloadGpuSpec
WorkloadGpuSpec::Preset(const std::string& name)
{
    // Dense bf16 peaks and NVLink bandwidth per direction (half the usual bidirectional total).
    std::string key = Lower(name);
    if (key == "a100")
    {
        return {key, 312.0, 300.0};
    }
    if (key == "h100" || key == "h200")
    {
        return {key, 989.0, 450.0};
    }
    if (key == "b200")
    {
        return {key, 2250.0, 900.0};
    }
    throw std::invalid_argument("unknown GPU '" + name + "' (known: " + Join(PresetNames()) + ")");
}

std::vector<std::string>
WorkloadGpuSpec::PresetNames()
{
    return {"a100", "h100", "h200", "b200"};
}

} // namespace ns3
