/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_MODEL_SPEC_H
#define WORKLOAD_MODEL_SPEC_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Dimensions of a decoder-only transformer and the parameter counts they imply.
 *
 * Llama-style models: RMSNorm (h parameters per norm), no biases, grouped-query attention,
 * gated (SwiGLU, three matrices) MLP, untied input and output embeddings. GPT-3-style models:
 * LayerNorm (2h), biases in every linear layer, plain (two-matrix) MLP, learned position
 * embeddings, output head tied to the input embedding. A mixture-of-experts model replaces
 * every layer's MLP with `experts` MLPs plus a router (h x experts), `topK` of them per token.
 */
struct WorkloadModelSpec
{
    std::string name{"custom"}; //!< preset name or "custom"
    uint32_t layers{0};         //!< transformer blocks
    uint32_t hidden{0};         //!< model width h
    uint32_t heads{0};          //!< attention (query) heads
    uint32_t kvHeads{0};        //!< key/value heads (grouped-query attention)
    uint32_t ffn{0};            //!< MLP inner width (per expert)
    uint32_t vocab{0};          //!< vocabulary size
    uint32_t experts{1};        //!< MLP experts per layer (1: dense)
    uint32_t topK{1};           //!< experts per token
    bool gatedMlp{true};        //!< three-matrix (SwiGLU) MLP instead of two
    bool biases{false};         //!< biases in linear layers, LayerNorm instead of RMSNorm
    bool tiedEmbeddings{false}; //!< output head shares the input embedding
    uint32_t positions{0};      //!< learned position embeddings (0: rotary, none)

    /// \return h / heads
    uint32_t HeadDim() const;
    /// \return attention parameters of one block (Q, K, V, O and their biases)
    uint64_t AttentionParams() const;
    /// \return parameters of one MLP (one expert)
    uint64_t ExpertParams() const;
    /// \return router parameters of one block (0 for a dense model)
    uint64_t RouterParams() const;
    /// \return parameters of one norm (h, or 2h for LayerNorm)
    uint64_t NormParams() const;
    /// \return parameters of one block: attention, all experts, router, two norms
    uint64_t LayerParams() const;
    /// \return input embedding parameters (tokens and learned positions)
    uint64_t EmbeddingParams() const;
    /// \return final norm and output head parameters (head 0 if tied)
    uint64_t HeadParams() const;
    /// \return every parameter of the model
    uint64_t TotalParams() const;
    /// \return true if the MLP is a mixture of experts
    bool IsMoe() const;

    /// \brief Throws std::invalid_argument naming the first inconsistent dimension.
    void Check() const;

    /**
     * \param name llama3-8b, llama3-70b, llama3.1-405b, gpt3-175b or mixtral-8x7b
     * \return the preset
     * \throws std::invalid_argument for an unknown name (listing the known ones)
     */
    static WorkloadModelSpec Preset(const std::string& name);
    /// \return the preset names
    static std::vector<std::string> PresetNames();
};

/**
 * \ingroup photonic-rails
 * \brief What the generator needs to know of a GPU: dense bf16 peak and scale-up bandwidth.
 */
struct WorkloadGpuSpec
{
    std::string name;      //!< preset name
    double peakTflops{0};  //!< dense bf16 peak, TFLOP/s
    double scaleUpGBps{0}; //!< scale-up (NVLink) bandwidth per direction, GB/s

    /**
     * \param name a100, h100, h200 or b200 (case-insensitive)
     * \return the preset
     * \throws std::invalid_argument for an unknown name
     */
    static WorkloadGpuSpec Preset(const std::string& name);
    /// \return the preset names
    static std::vector<std::string> PresetNames();
};

} // namespace ns3

#endif /* WORKLOAD_MODEL_SPEC_H */
