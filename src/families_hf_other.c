/*
 * families_hf_other.c — one group of the Hugging Face family registry:
 * vision, audio, speech, video, time-series, detection/segmentation models,
 * dual encoders, codecs and the vision/audio towers of multimodal models.
 * posenc plans the token positions of text language models; none of these
 * is one, so every record here refuses, and says why: `position` is the kind
 * the family really uses (nearest posenc kind: `t5` stands for any relative
 * scheme, `nope` for attention whose only position signal comes from
 * convolutions, `none` for models without attention over positions), and
 * `refusal` names the scheme. Each `source` names the transformers file and
 * class read; docs/FAMILIES.md section 3.3 gives the commits and the table.
 * The record type and its rules are in plan_internal.h.
 */
#include "plan_internal.h"

#include <stddef.h>

/* A refusal record: a compound literal of static storage, so the list below
 * holds one line group per model_type instead of a named object each. */
#define REFUSED(type, kind, src, why)                                           \
    &(const pe__family) {                                                       \
        .model_type = (type), .position = (kind), .source = (src), .refusal = (why) \
    }

/* The reasons shared by several records. */
#define WHY_VIT_LEARNED \
    "a vision encoder: a learned table over image patches; posenc plans the token " \
    "positions of text models"
#define WHY_SWIN \
    "a vision encoder: windowed attention with a learned relative position bias over " \
    "image patches; posenc plans the token positions of text models"
#define WHY_CONVPOS_VISION \
    "a vision encoder whose attention carries no position encoding (convolutions supply " \
    "position); posenc plans the token positions of text models"
#define WHY_CONVNET \
    "no attention over token positions: a convolutional image model"
#define WHY_HEAD \
    "a head over a backbone named in the config, with no attention over positions of its " \
    "own: read the backbone's config"
#define WHY_TIMM \
    "a wrapper of a timm architecture named in the config; its positions are that " \
    "architecture's, which posenc does not read"
#define WHY_COMPOSITE \
    "a composite of sub-models named in the config, with no positions of its own: read " \
    "each sub-model's config (its model_type)"
#define WHY_DETR \
    "a detection or segmentation transformer: fixed 2-D sine tables added to queries and " \
    "keys over image features; posenc plans the token positions of text models"
#define WHY_VISION_ROPE \
    "2-D vision RoPE over image patches; posenc plans the language model (read the " \
    "checkpoint's config.json, whose text_config it follows)"
#define WHY_VISION_ROPE_LEARNED \
    "2-D vision RoPE plus an interpolated learned table over image patches; posenc plans " \
    "the language model (read the checkpoint's config.json, whose text_config it follows)"
#define WHY_SAM \
    "an image segmentation model (image-patch and prompt-coordinate positions); no token " \
    "positions for posenc to plan"
#define WHY_CONVPOS_AUDIO \
    "a speech encoder whose positions come only from a convolution added to the features " \
    "(no table, no bias); posenc plans the token positions of text models"
#define WHY_CONFORMER \
    "a conformer speech model: relative positions in its attention; posenc plans the " \
    "token positions of text models"
#define WHY_AUDIO_FROZEN \
    "an audio encoder: a frozen absolute table over audio frames (Whisper-style, read " \
    "from the checkpoint); posenc plans the language model (read the checkpoint's " \
    "config.json)"
#define WHY_AUDIO_ROPE \
    "an audio encoder: RoPE over audio frames; posenc plans the token positions of text " \
    "LLMs (read the checkpoint's config.json for its language model)"
#define WHY_VOCODER \
    "no attention over token positions: a convolutional vocoder"
#define WHY_CODEC \
    "no attention over token positions: a convolutional audio codec"
#define WHY_VQGAN \
    "an image tokenizer (VQ-VAE): convolutions with spatial attention blocks that carry " \
    "no position encoding; no token positions for posenc to plan"
#define WHY_DUAL \
    "a dual encoder (contrastive image-text): learned tables in both towers; posenc " \
    "plans the token positions of text LLMs"
#define WHY_TEXT_TOWER \
    "the text tower of a dual encoder: a learned absolute table; posenc plans the token " \
    "positions of text LLMs"
#define WHY_VISION_TOWER \
    "a vision encoder: a learned table over image patches; posenc plans the language " \
    "model (read the checkpoint's config.json)"
#define WHY_RESAMPLER \
    "a perceiver resampler: learned latents attend to image features without positions; " \
    "posenc plans the language model (read the checkpoint's config.json)"
#define WHY_QFORMER \
    "the Q-Former of an InstructBLIP model: learned queries plus instruction tokens with " \
    "a learned table; posenc plans the language model (read the checkpoint's config.json)"
#define WHY_SEAMLESS \
    "a speech and text translation model (a conformer speech encoder with relative " \
    "positions, sinusoidal text stacks); posenc plans decoder-only and T5 text models"
#define WHY_TIMESERIES \
    "a time-series model: positions over time steps or patches, not tokens; posenc plans " \
    "the token positions of text models"
#define WHY_VIDEO \
    "a video encoder: positions over space-time patches; posenc plans the token " \
    "positions of text models"

/* The group's records; NULL ends the list. */
static const pe__family *const records[] = {
    /* One record per model_type, in the groups of docs/FAMILIES.md section 3.3 table. */
    /* ViT-style learned absolute patch tables */
    REFUSED("vit", PE_POSITION_LEARNED,
            "models/vit/modeling_vit.py (ViTEmbeddings.position_embeddings, nn.Parameter)",
            WHY_VIT_LEARNED),
    REFUSED("deit", PE_POSITION_LEARNED,
            "models/deit/modeling_deit.py (DeiTEmbeddings.position_embeddings)",
            WHY_VIT_LEARNED),
    REFUSED("vit_msn", PE_POSITION_LEARNED,
            "models/vit_msn/modeling_vit_msn.py (ViTMSNEmbeddings.position_embeddings)",
            WHY_VIT_LEARNED),
    REFUSED("ijepa", PE_POSITION_LEARNED,
            "models/ijepa/modeling_ijepa.py (IJepaEmbeddings.position_embeddings)",
            WHY_VIT_LEARNED),
    REFUSED("dinov2", PE_POSITION_LEARNED,
            "models/dinov2/modeling_dinov2.py (Dinov2Embeddings.position_embeddings, "
            "interpolated)",
            WHY_VIT_LEARNED),
    REFUSED("dinov2_with_registers", PE_POSITION_LEARNED,
            "models/dinov2_with_registers/modeling_dinov2_with_registers.py "
            "(position_embeddings, interpolated)",
            WHY_VIT_LEARNED),
    REFUSED("pixio", PE_POSITION_LEARNED,
            "models/pixio/modeling_pixio.py (PixioEmbeddings.position_embeddings, interpolated)",
            WHY_VIT_LEARNED),
    REFUSED("yolos", PE_POSITION_LEARNED,
            "models/yolos/modeling_yolos.py (YolosEmbeddings.position_embeddings, interpolated "
            "per layer)",
            "a detection transformer over image patches: a learned table over patches and "
            "detection tokens; posenc plans the token positions of text models"),
    REFUSED("hiera", PE_POSITION_LEARNED,
            "models/hiera/modeling_hiera.py (HieraEmbeddings.position_embeddings)",
            WHY_VIT_LEARNED),
    REFUSED("seggpt", PE_POSITION_LEARNED,
            "models/seggpt/modeling_seggpt.py (SegGptEmbeddings.position_embeddings; relative "
            "positions in attention when use_relative_position_embeddings)",
            WHY_VIT_LEARNED),
    REFUSED("vitdet", PE_POSITION_LEARNED,
            "models/vitdet/modeling_vitdet.py (VitDetEmbeddings.position_embeddings; decomposed "
            "relative positions when use_relative_position_embeddings)",
            WHY_VIT_LEARNED),
    REFUSED("vitpose_backbone", PE_POSITION_LEARNED,
            "models/vitpose_backbone/modeling_vitpose_backbone.py "
            "(VitPoseBackboneEmbeddings.position_embeddings)",
            WHY_VIT_LEARNED),
    REFUSED("dpt", PE_POSITION_LEARNED,
            "models/dpt/modeling_dpt.py (DPTViTEmbeddings.position_embeddings)",
            WHY_VIT_LEARNED),
    REFUSED("eomt", PE_POSITION_LEARNED,
            "models/eomt/modeling_eomt.py (EomtEmbeddings.position_embeddings, nn.Embedding over "
            "patches)",
            WHY_VIT_LEARNED),
    REFUSED("lw_detr_vit", PE_POSITION_LEARNED,
            "models/lw_detr/modeling_lw_detr.py (LwDetrViTEmbeddings.position_embeddings)",
            WHY_VIT_LEARNED),
    REFUSED("mgp-str", PE_POSITION_LEARNED,
            "models/mgp_str/modeling_mgp_str.py (MgpstrEmbeddings.pos_embed)",
            WHY_VIT_LEARNED),
    REFUSED("pvt", PE_POSITION_LEARNED,
            "models/pvt/modeling_pvt.py (PvtPatchEmbeddings.position_embeddings per stage)",
            WHY_VIT_LEARNED),
    REFUSED("beit", PE_POSITION_RELATIVE,
            "models/beit/modeling_beit.py (BeitRelativePositionBias; absolute "
            "position_embeddings when use_absolute_position_embeddings)",
            "a vision encoder: a learned relative position bias per attention window offset (and "
            "optionally a learned absolute table) over image patches; posenc plans the token "
            "positions of text models"),
    REFUSED("data2vec-vision", PE_POSITION_RELATIVE,
            "models/data2vec/modeling_data2vec_vision.py (Data2VecVisionRelativePositionBias, as "
            "BEiT)",
            "a vision encoder: a learned relative position bias over image patches (BEiT's); "
            "posenc plans the token positions of text models"),
    REFUSED("vit_mae", PE_POSITION_SINUSOIDAL,
            "models/vit_mae/modeling_vit_mae.py (get_2d_sincos_pos_embed, fixed in encoder and "
            "decoder)",
            "a vision encoder: a fixed 2-D sine-cosine table over image patches; posenc plans "
            "the token positions of text models"),
    REFUSED("aimv2_vision_model", PE_POSITION_LEARNED,
            "models/aimv2/modeling_aimv2.py (Aimv2VisionEmbeddings: a learned table, or a 2-D "
            "sine-cosine table when is_native)",
            WHY_VIT_LEARNED),
    /* Swin family: windowed attention with a learned relative bias */
    REFUSED("swin", PE_POSITION_RELATIVE,
            "models/swin/modeling_swin.py (relative_position_bias_table per window; optional "
            "absolute table)",
            WHY_SWIN),
    REFUSED("donut-swin", PE_POSITION_RELATIVE,
            "models/donut/modeling_donut_swin.py (relative_position_bias_table, as Swin)",
            WHY_SWIN),
    REFUSED("maskformer-swin", PE_POSITION_RELATIVE,
            "models/maskformer/modeling_maskformer_swin.py (relative_position_bias_table, as "
            "Swin)",
            WHY_SWIN),
    REFUSED("swinv2", PE_POSITION_RELATIVE,
            "models/swinv2/modeling_swinv2.py (continuous relative position bias, cpb_mlp over "
            "log-spaced offsets)",
            WHY_SWIN),
    REFUSED("swin2sr", PE_POSITION_RELATIVE,
            "models/swin2sr/modeling_swin2sr.py (continuous relative position bias, as Swin V2)",
            WHY_SWIN),
    REFUSED("dinat", PE_POSITION_RELATIVE,
            "models/dinat/modeling_dinat.py (neighborhood attention with a learned relative bias "
            "rpb)",
            "a vision encoder: neighborhood attention with a learned relative position bias over "
            "image patches; posenc plans the token positions of text models"),
    REFUSED("clap_audio_model", PE_POSITION_RELATIVE,
            "models/clap/modeling_clap.py (ClapAudio: Swin-style windows over spectrogram "
            "patches, relative_position_bias_table)",
            "an audio encoder (HTS-AT): Swin-style windowed attention with a learned relative "
            "bias over spectrogram patches; posenc plans the token positions of text models"),
    REFUSED("levit", PE_POSITION_RELATIVE,
            "models/levit/modeling_levit.py (attention_biases per relative offset)",
            "a vision encoder: a learned attention bias per relative patch offset; posenc plans "
            "the token positions of text models"),
    /* attention without an explicit position signal (convolutions carry position) */
    REFUSED("cvt", PE_POSITION_NOPE,
            "models/cvt/modeling_cvt.py (CvtConvEmbeddings, convolutional projections; no "
            "position table)",
            WHY_CONVPOS_VISION),
    REFUSED("segformer", PE_POSITION_NOPE,
            "models/segformer/modeling_segformer.py (overlapping patch convolutions and Mix-FFN; "
            "no position table)",
            WHY_CONVPOS_VISION),
    REFUSED("glpn", PE_POSITION_NOPE,
            "models/glpn/modeling_glpn.py (SegFormer-style encoder; no position table)",
            WHY_CONVPOS_VISION),
    REFUSED("pvt_v2", PE_POSITION_NOPE,
            "models/pvt_v2/modeling_pvt_v2.py (overlapping patch convolutions, a depth-wise conv "
            "as position encoding)",
            WHY_CONVPOS_VISION),
    REFUSED("mobilevit", PE_POSITION_NOPE,
            "models/mobilevit/modeling_mobilevit.py (transformer over unfolded conv patches; no "
            "position table)",
            WHY_CONVPOS_VISION),
    REFUSED("mobilevitv2", PE_POSITION_NOPE,
            "models/mobilevitv2/modeling_mobilevitv2.py (linear attention over conv patches; no "
            "position table)",
            WHY_CONVPOS_VISION),
    REFUSED("swiftformer", PE_POSITION_NOPE,
            "models/swiftformer/modeling_swiftformer.py (efficient additive attention; no "
            "position table)",
            WHY_CONVPOS_VISION),
    REFUSED("superglue", PE_POSITION_NOPE,
            "models/superglue/modeling_superglue.py (SuperGlueKeypointEncoder: keypoint "
            "coordinates encoded by an MLP)",
            "a keypoint matcher: attention over keypoints whose image coordinates enter through "
            "an MLP encoder; no token positions for posenc to plan"),
    /* convolutional, no attention */
    REFUSED("bit", PE_POSITION_NONE,
            "models/bit/modeling_bit.py",
            WHY_CONVNET),
    REFUSED("convnext", PE_POSITION_NONE,
            "models/convnext/modeling_convnext.py",
            WHY_CONVNET),
    REFUSED("convnextv2", PE_POSITION_NONE,
            "models/convnextv2/modeling_convnextv2.py",
            WHY_CONVNET),
    REFUSED("dinov3_convnext", PE_POSITION_NONE,
            "models/dinov3_convnext/modeling_dinov3_convnext.py",
            WHY_CONVNET),
    REFUSED("efficientnet", PE_POSITION_NONE,
            "models/efficientnet/modeling_efficientnet.py",
            WHY_CONVNET),
    REFUSED("align_vision_model", PE_POSITION_NONE,
            "models/align/modeling_align.py (AlignVisionEncoder: EfficientNet blocks)",
            WHY_CONVNET),
    REFUSED("focalnet", PE_POSITION_NONE,
            "models/focalnet/modeling_focalnet.py (focal modulation, no attention)",
            WHY_CONVNET),
    REFUSED("hgnet_v2", PE_POSITION_NONE,
            "models/hgnet_v2/modeling_hgnet_v2.py",
            WHY_CONVNET),
    REFUSED("mobilenet_v1", PE_POSITION_NONE,
            "models/mobilenet_v1/modeling_mobilenet_v1.py",
            WHY_CONVNET),
    REFUSED("mobilenet_v2", PE_POSITION_NONE,
            "models/mobilenet_v2/modeling_mobilenet_v2.py",
            WHY_CONVNET),
    REFUSED("poolformer", PE_POSITION_NONE,
            "models/poolformer/modeling_poolformer.py (pooling token mixer, no attention)",
            WHY_CONVNET),
    REFUSED("regnet", PE_POSITION_NONE,
            "models/regnet/modeling_regnet.py",
            WHY_CONVNET),
    REFUSED("resnet", PE_POSITION_NONE,
            "models/resnet/modeling_resnet.py",
            WHY_CONVNET),
    REFUSED("rt_detr_resnet", PE_POSITION_NONE,
            "models/rt_detr/modeling_rt_detr_resnet.py",
            WHY_CONVNET),
    REFUSED("textnet", PE_POSITION_NONE,
            "models/textnet/modeling_textnet.py",
            WHY_CONVNET),
    REFUSED("superpoint", PE_POSITION_NONE,
            "models/superpoint/modeling_superpoint.py",
            WHY_CONVNET),
    /* heads and composites over a backbone named in the config */
    REFUSED("upernet", PE_POSITION_NONE,
            "models/upernet/modeling_upernet.py (a convolutional head over load_backbone(config))",
            WHY_HEAD),
    REFUSED("depth_anything", PE_POSITION_NONE,
            "models/depth_anything/modeling_depth_anything.py (a DPT-style head over "
            "load_backbone(config))",
            WHY_HEAD),
    REFUSED("prompt_depth_anything", PE_POSITION_NONE,
            "models/prompt_depth_anything/modeling_prompt_depth_anything.py (a head over "
            "load_backbone(config))",
            WHY_HEAD),
    REFUSED("depth_pro", PE_POSITION_NONE,
            "models/depth_pro/modeling_depth_pro.py (convolutional fusion over image encoders "
            "built from sub-configs)",
            WHY_HEAD),
    REFUSED("vitmatte", PE_POSITION_NONE,
            "models/vitmatte/modeling_vitmatte.py (a convolutional decoder over "
            "load_backbone(config))",
            WHY_HEAD),
    REFUSED("vitpose", PE_POSITION_NONE,
            "models/vitpose/modeling_vitpose.py (a heatmap head over load_backbone(config))",
            WHY_HEAD),
    REFUSED("zoedepth", PE_POSITION_SINUSOIDAL,
            "models/zoedepth/modeling_zoedepth.py (a metric-depth head over "
            "load_backbone(config); ZoeDepthPatchTransformerEncoder adds positional_encoding_1d, "
            "a fixed sine-cosine table, before its transformer layers)",
            "a depth-estimation head over a backbone named in the config; its patch transformer "
            "adds a fixed 1-D sinusoidal table; no token positions for posenc to plan"),
    REFUSED("timm_backbone", PE_POSITION_NONE,
            "models/timm_backbone/modeling_timm_backbone.py (timm.create_model of the config's "
            "backbone)",
            WHY_TIMM),
    REFUSED("timm_wrapper", PE_POSITION_NONE,
            "models/timm_wrapper/modeling_timm_wrapper.py (timm.create_model of the config's "
            "architecture)",
            WHY_TIMM),
    REFUSED("gemma3n_vision", PE_POSITION_NONE,
            "models/gemma3n/configuration_gemma3n.py (Gemma3nVisionConfig: a timm model, "
            "MobileNet-V5)",
            WHY_TIMM),
    REFUSED("vision-encoder-decoder", PE_POSITION_NONE,
            "models/vision_encoder_decoder/modeling_vision_encoder_decoder.py "
            "(AutoModel.from_config of config.encoder and config.decoder)",
            WHY_COMPOSITE),
    REFUSED("speech-encoder-decoder", PE_POSITION_NONE,
            "models/speech_encoder_decoder/modeling_speech_encoder_decoder.py "
            "(AutoModel.from_config of config.encoder and config.decoder)",
            WHY_COMPOSITE),
    REFUSED("vision-text-dual-encoder", PE_POSITION_NONE,
            "models/vision_text_dual_encoder/modeling_vision_text_dual_encoder.py "
            "(AutoModel.from_config of config.vision_config and config.text_config)",
            WHY_COMPOSITE),
    /* detection and segmentation transformers: 2-D sine tables on queries and keys */
    REFUSED("detr", PE_POSITION_SINUSOIDAL,
            "models/detr/modeling_detr.py (DetrSinePositionEmbedding; position_embedding_type "
            "default \"sine\", \"learned\" possible)",
            WHY_DETR),
    REFUSED("conditional_detr", PE_POSITION_SINUSOIDAL,
            "models/conditional_detr/modeling_conditional_detr.py "
            "(ConditionalDetrSinePositionEmbedding; default \"sine\")",
            WHY_DETR),
    REFUSED("deformable_detr", PE_POSITION_SINUSOIDAL,
            "models/deformable_detr/modeling_deformable_detr.py "
            "(DeformableDetrSinePositionEmbedding; default \"sine\")",
            WHY_DETR),
    REFUSED("table-transformer", PE_POSITION_SINUSOIDAL,
            "models/table_transformer/modeling_table_transformer.py "
            "(TableTransformerSinePositionEmbedding; default \"sine\")",
            WHY_DETR),
    REFUSED("dab-detr", PE_POSITION_SINUSOIDAL,
            "models/dab_detr/modeling_dab_detr.py (DabDetrSinePositionEmbedding, sine embeddings "
            "of anchor boxes)",
            WHY_DETR),
    REFUSED("d_fine", PE_POSITION_SINUSOIDAL,
            "models/d_fine/modeling_d_fine.py (DFineSinePositionEmbedding)",
            WHY_DETR),
    REFUSED("rt_detr", PE_POSITION_SINUSOIDAL,
            "models/rt_detr/modeling_rt_detr.py (RTDetrSinePositionEmbedding)",
            WHY_DETR),
    REFUSED("rt_detr_v2", PE_POSITION_SINUSOIDAL,
            "models/rt_detr_v2/modeling_rt_detr_v2.py (RTDetrV2SinePositionEmbedding)",
            WHY_DETR),
    REFUSED("grounding-dino", PE_POSITION_SINUSOIDAL,
            "models/grounding_dino/modeling_grounding_dino.py "
            "(GroundingDinoSinePositionEmbedding; default \"sine\")",
            WHY_DETR),
    REFUSED("mm-grounding-dino", PE_POSITION_SINUSOIDAL,
            "models/mm_grounding_dino/modeling_mm_grounding_dino.py "
            "(MMGroundingDinoSinePositionEmbedding; default \"sine\")",
            WHY_DETR),
    REFUSED("omdet-turbo", PE_POSITION_SINUSOIDAL,
            "models/omdet_turbo/modeling_omdet_turbo.py (build_2d_sincos_position_embedding)",
            WHY_DETR),
    REFUSED("lw_detr", PE_POSITION_SINUSOIDAL,
            "models/lw_detr/modeling_lw_detr.py (gen_sine_position_embeddings of reference "
            "boxes; ViT backbone lw_detr_vit with a learned table)",
            WHY_DETR),
    REFUSED("mask2former", PE_POSITION_SINUSOIDAL,
            "models/mask2former/modeling_mask2former.py (Mask2FormerSinePositionEmbedding)",
            WHY_DETR),
    REFUSED("maskformer", PE_POSITION_SINUSOIDAL,
            "models/maskformer/modeling_maskformer.py (MaskFormerSinePositionEmbedding)",
            WHY_DETR),
    REFUSED("oneformer", PE_POSITION_SINUSOIDAL,
            "models/oneformer/modeling_oneformer.py (OneFormerSinePositionEmbedding)",
            WHY_DETR),
    REFUSED("eomt_dinov3", PE_POSITION_ROPE,
            "models/eomt_dinov3/modeling_eomt_dinov3.py (EomtDinov3RotaryEmbedding: DINOv3's 2-D "
            "RoPE)",
            WHY_VISION_ROPE),
    /* SAM and trackers */
    REFUSED("sam", PE_POSITION_LEARNED,
            "models/sam/modeling_sam.py (SamVisionEncoder pos_embed; decomposed relative "
            "positions in SamVisionAttention; SamPositionalEmbedding: random Fourier features of "
            "prompt coordinates)",
            WHY_SAM),
    REFUSED("sam_vision_model", PE_POSITION_LEARNED,
            "models/sam/modeling_sam.py (SamVisionEmbeddings/pos_embed, use_rel_pos)",
            WHY_SAM),
    REFUSED("sam_hq", PE_POSITION_LEARNED,
            "models/sam_hq/modeling_sam_hq.py (as SAM: pos_embed, relative positions, "
            "SamHQPositionalEmbedding)",
            WHY_SAM),
    REFUSED("sam_hq_vision_model", PE_POSITION_LEARNED,
            "models/sam_hq/modeling_sam_hq.py (as SAM)",
            WHY_SAM),
    REFUSED("sam2", PE_POSITION_SINUSOIDAL,
            "models/sam2/modeling_sam2.py (Sam2SinePositionEmbedding; Hiera backbone with a "
            "learned table)",
            WHY_SAM),
    REFUSED("sam2_vision_model", PE_POSITION_SINUSOIDAL,
            "models/sam2/modeling_sam2.py (Sam2SinePositionEmbedding in the FPN neck)",
            WHY_SAM),
    REFUSED("sam2_hiera_det_model", PE_POSITION_LEARNED,
            "models/sam2/modeling_sam2.py (Hiera backbone: learned position embeddings)",
            WHY_SAM),
    REFUSED("sam2_video", PE_POSITION_ROPE,
            "models/sam2_video/modeling_sam2_video.py (Sam2VideoVisionRotaryEmbedding in memory "
            "attention, Sam2VideoPositionEmbeddingSine)",
            WHY_SAM),
    REFUSED("edgetam", PE_POSITION_SINUSOIDAL,
            "models/edgetam/modeling_edgetam.py (EdgeTamSinePositionEmbedding, "
            "EdgeTamPositionalEmbedding of prompts)",
            WHY_SAM),
    REFUSED("edgetam_vision_model", PE_POSITION_SINUSOIDAL,
            "models/edgetam/modeling_edgetam.py (EdgeTamSinePositionEmbedding in the neck)",
            WHY_SAM),
    REFUSED("edgetam_video", PE_POSITION_ROPE,
            "models/edgetam_video/modeling_edgetam_video.py (2-D RoPE in memory attention)",
            WHY_SAM),
    REFUSED("sam3", PE_POSITION_ROPE,
            "models/sam3/modeling_sam3.py (Sam3ViTRotaryEmbedding, learned Sam3ViTEmbeddings, "
            "Sam3SinePositionEmbedding)",
            WHY_SAM),
    REFUSED("sam3_vit_model", PE_POSITION_ROPE,
            "models/sam3/modeling_sam3.py (Sam3ViTRotaryEmbedding in Sam3ViTRoPEAttention)",
            WHY_SAM),
    REFUSED("sam3_vision_model", PE_POSITION_ROPE,
            "models/sam3/modeling_sam3.py (the ViT backbone's 2-D RoPE, sine tables in the neck)",
            WHY_SAM),
    REFUSED("sam3_detr_encoder", PE_POSITION_SINUSOIDAL,
            "models/sam3/modeling_sam3.py (Sam3SinePositionEmbedding on image features)",
            WHY_SAM),
    REFUSED("sam3_detr_decoder", PE_POSITION_SINUSOIDAL,
            "models/sam3/modeling_sam3.py (sine embeddings of box queries)",
            WHY_SAM),
    REFUSED("sam3_geometry_encoder", PE_POSITION_SINUSOIDAL,
            "models/sam3/modeling_sam3.py (sine embeddings of prompt geometry)",
            WHY_SAM),
    REFUSED("sam3_mask_decoder", PE_POSITION_NOPE,
            "models/sam3/modeling_sam3.py (Sam3MaskDecoder: a pixel decoder and prompt "
            "cross-attention, no position table of its own)",
            "a segmentation mask decoder: cross-attention to prompts without positions of its "
            "own; no token positions for posenc to plan"),
    REFUSED("sam3_tracker", PE_POSITION_SINUSOIDAL,
            "models/sam3_tracker/modeling_sam3_tracker.py (Sam3TrackerPositionalEmbedding: "
            "random Fourier features of coordinates)",
            WHY_SAM),
    REFUSED("sam3_tracker_video", PE_POSITION_ROPE,
            "models/sam3_tracker_video/modeling_sam3_tracker_video.py (2-D RoPE in memory "
            "attention)",
            WHY_SAM),
    REFUSED("sam3_video", PE_POSITION_ROPE,
            "models/sam3_video/modeling_sam3_video.py (SAM 3 detector and tracker)",
            WHY_SAM),
    /* speech encoders: convolutional positions (wav2vec 2.0 kin) */
    REFUSED("wav2vec2", PE_POSITION_NOPE,
            "models/wav2vec2/modeling_wav2vec2.py (Wav2Vec2PositionalConvEmbedding added to the "
            "features; no table)",
            WHY_CONVPOS_AUDIO),
    REFUSED("hubert", PE_POSITION_NOPE,
            "models/hubert/modeling_hubert.py (HubertPositionalConvEmbedding)",
            WHY_CONVPOS_AUDIO),
    REFUSED("data2vec-audio", PE_POSITION_NOPE,
            "models/data2vec/modeling_data2vec_audio.py (Data2VecAudioPositionalConvEmbedding)",
            WHY_CONVPOS_AUDIO),
    REFUSED("sew", PE_POSITION_NOPE,
            "models/sew/modeling_sew.py (SEWPositionalConvEmbedding)",
            WHY_CONVPOS_AUDIO),
    REFUSED("unispeech", PE_POSITION_NOPE,
            "models/unispeech/modeling_unispeech.py (UniSpeechPositionalConvEmbedding)",
            WHY_CONVPOS_AUDIO),
    REFUSED("unispeech-sat", PE_POSITION_NOPE,
            "models/unispeech_sat/modeling_unispeech_sat.py (UniSpeechSatPositionalConvEmbedding)",
            WHY_CONVPOS_AUDIO),
    REFUSED("wavlm", PE_POSITION_T5,
            "models/wavlm/modeling_wavlm.py (WavLMAttention: gated relative position bias, "
            "rel_attn_embed; WavLMPositionalConvEmbedding)",
            "a speech encoder: a gated learned relative position bias in attention plus "
            "convolutional positions; posenc plans the token positions of text models"),
    REFUSED("sew-d", PE_POSITION_RELATIVE,
            "models/sew_d/modeling_sew_d.py (DeBERTa-style disentangled relative attention, "
            "c2p/p2c; SEWDPositionalConvEmbedding)",
            "a speech encoder: DeBERTa's disentangled relative attention plus convolutional "
            "positions; posenc plans the token positions of text models"),
    REFUSED("wav2vec2-conformer", PE_POSITION_RELATIVE,
            "models/wav2vec2_conformer/modeling_wav2vec2_conformer.py (position_embeddings_type "
            "default \"relative\": Transformer-XL relative encodings; \"rotary\" possible)",
            WHY_CONFORMER),
    REFUSED("wav2vec2-bert", PE_POSITION_RELATIVE,
            "models/wav2vec2_bert/modeling_wav2vec2_bert.py (position_embeddings_type default "
            "\"relative_key\": Shaw relative keys; \"relative\" and \"rotary\" possible)",
            WHY_CONFORMER),
    /* audio towers of speech LLMs and ASR encoders */
    REFUSED("qwen2_audio_encoder", PE_POSITION_LEARNED,
            "models/qwen2_audio/modeling_qwen2_audio.py (Qwen2AudioEncoder.embed_positions: "
            "nn.Embedding with requires_grad False, read from the checkpoint)",
            WHY_AUDIO_FROZEN),
    REFUSED("voxtral_encoder", PE_POSITION_LEARNED,
            "models/voxtral/modeling_voxtral.py (VoxtralEncoder.embed_positions: frozen "
            "nn.Embedding)",
            WHY_AUDIO_FROZEN),
    REFUSED("audioflamingo3_encoder", PE_POSITION_LEARNED,
            "models/audioflamingo3/modeling_audioflamingo3.py (embed_positions: frozen "
            "nn.Embedding)",
            WHY_AUDIO_FROZEN),
    REFUSED("qwen2_5_omni_audio_encoder", PE_POSITION_SINUSOIDAL,
            "models/qwen2_5_omni/modeling_qwen2_5_omni.py (SinusoidsPositionEmbedding)",
            "an audio encoder: a fixed sinusoidal table over audio frames (restarted per chunk); "
            "posenc plans the token positions of text models"),
    REFUSED("qwen3_omni_moe_audio_encoder", PE_POSITION_SINUSOIDAL,
            "models/qwen3_omni_moe/modeling_qwen3_omni_moe.py (SinusoidsPositionEmbedding)",
            "an audio encoder: a fixed sinusoidal table over audio frames (restarted per chunk); "
            "posenc plans the token positions of text models"),
    REFUSED("granite_speech_encoder", PE_POSITION_RELATIVE,
            "models/granite_speech/modeling_granite_speech.py (conformer attention with Shaw "
            "relative positions, rel_pos_emb over max_pos_emb)",
            "a conformer speech encoder: Shaw-style learned relative positions within blocks; "
            "posenc plans the token positions of text models"),
    REFUSED("gemma3n_audio", PE_POSITION_RELATIVE,
            "models/gemma3n/modeling_gemma3n.py (Gemma3nAudioRelativePositionEmbedding: "
            "sinusoidal relative encodings over a local context)",
            "a conformer audio encoder: relative positions over a local attention context; "
            "posenc plans the token positions of text models"),
    REFUSED("phi4_multimodal_audio", PE_POSITION_RELATIVE,
            "models/phi4_multimodal/modeling_phi4_multimodal.py "
            "(Phi4MultimodalAudioRelativeAttentionBias)",
            "a conformer audio encoder: a learned relative attention bias; posenc plans the "
            "token positions of text models"),
    REFUSED("glmasr_encoder", PE_POSITION_ROPE,
            "models/glmasr/modeling_glmasr.py (GlmAsrRotaryEmbedding in the audio encoder's "
            "attention)",
            WHY_AUDIO_ROPE),
    REFUSED("lasr_encoder", PE_POSITION_ROPE,
            "models/lasr/modeling_lasr.py (LasrEncoderRotaryEmbedding)",
            WHY_AUDIO_ROPE),
    REFUSED("lasr_ctc", PE_POSITION_ROPE,
            "models/lasr/modeling_lasr.py (LasrEncoderRotaryEmbedding; a CTC head)",
            WHY_AUDIO_ROPE),
    REFUSED("pe_audio_encoder", PE_POSITION_ROPE,
            "models/pe_audio/modeling_pe_audio.py (PeAudioEncoderRotaryEmbedding)",
            WHY_AUDIO_ROPE),
    REFUSED("pe_audio", PE_POSITION_ROPE,
            "models/pe_audio/modeling_pe_audio.py (PeAudioEncoderRotaryEmbedding; an audio-text "
            "dual encoder)",
            WHY_AUDIO_ROPE),
    REFUSED("voxtral_realtime_encoder", PE_POSITION_ROPE,
            "models/voxtral_realtime/modeling_voxtral_realtime.py "
            "(VoxtralRealtimeEncoder.rotary_emb)",
            WHY_AUDIO_ROPE),
    REFUSED("parakeet_encoder", PE_POSITION_RELATIVE,
            "models/parakeet/modeling_parakeet.py (ParakeetEncoderRelPositionalEncoding: "
            "Transformer-XL sinusoidal relative encodings)",
            WHY_CONFORMER),
    REFUSED("parakeet_ctc", PE_POSITION_RELATIVE,
            "models/parakeet/modeling_parakeet.py (the conformer encoder's relative encodings; a "
            "CTC head)",
            WHY_CONFORMER),
    REFUSED("fastspeech2_conformer", PE_POSITION_RELATIVE,
            "models/fastspeech2_conformer/modeling_fastspeech2_conformer.py "
            "(FastSpeech2ConformerRelPositionalEncoding, linear_pos, pos_bias_u/v)",
            WHY_CONFORMER),
    REFUSED("fastspeech2_conformer_with_hifigan", PE_POSITION_RELATIVE,
            "models/fastspeech2_conformer/modeling_fastspeech2_conformer.py (the conformer's "
            "relative encodings, then a HiFi-GAN vocoder)",
            WHY_CONFORMER),
    REFUSED("fastspeech2_conformer_hifigan", PE_POSITION_NONE,
            "models/fastspeech2_conformer/modeling_fastspeech2_conformer.py "
            "(FastSpeech2ConformerHifiGan: convolutional vocoder)",
            WHY_VOCODER),
    REFUSED("speecht5_hifigan", PE_POSITION_NONE,
            "models/speecht5/modeling_speecht5.py (SpeechT5HifiGan: convolutional vocoder)",
            WHY_VOCODER),
    REFUSED("univnet", PE_POSITION_NONE,
            "models/univnet/modeling_univnet.py (convolutional vocoder)",
            WHY_VOCODER),
    REFUSED("qwen2_5_omni_bigvgan", PE_POSITION_NONE,
            "models/qwen2_5_omni/modeling_qwen2_5_omni.py (Qwen2_5OmniToken2WavBigVGANModel: "
            "convolutional vocoder)",
            WHY_VOCODER),
    REFUSED("qwen2_5_omni_dit", PE_POSITION_ROPE,
            "models/qwen2_5_omni/modeling_qwen2_5_omni.py (Qwen2_5OmniDiTRotaryEmbedding in the "
            "flow-matching DiT)",
            "a diffusion transformer over mel frames (speech synthesis): RoPE over frames; "
            "posenc plans the token positions of text models"),
    REFUSED("qwen2_5_omni_token2wav", PE_POSITION_ROPE,
            "models/qwen2_5_omni/modeling_qwen2_5_omni.py (Token2Wav: the DiT's RoPE, then "
            "BigVGAN)",
            "speech synthesis (a DiT with RoPE over mel frames, then a vocoder); posenc plans "
            "the token positions of text models"),
    REFUSED("vits", PE_POSITION_RELATIVE,
            "models/vits/modeling_vits.py (VitsAttention: windowed relative key/value embeddings "
            "emb_rel_k, emb_rel_v)",
            "a text-to-speech model: windowed learned relative positions in its text encoder; "
            "posenc plans the positions of text LLMs, not speech synthesis"),
    /* codecs */
    REFUSED("dac", PE_POSITION_NONE,
            "models/dac/modeling_dac.py (convolutional codec)",
            WHY_CODEC),
    REFUSED("encodec", PE_POSITION_NONE,
            "models/encodec/modeling_encodec.py (convolutional codec with LSTMs)",
            WHY_CODEC),
    REFUSED("xcodec", PE_POSITION_NONE,
            "models/xcodec/modeling_xcodec.py (acoustic and semantic codecs; no attention of its "
            "own)",
            WHY_CODEC),
    REFUSED("higgs_audio_v2_tokenizer", PE_POSITION_NONE,
            "models/higgs_audio_v2_tokenizer/modeling_higgs_audio_v2_tokenizer.py (convolutional "
            "codec)",
            WHY_CODEC),
    REFUSED("vibevoice_acoustic_tokenizer", PE_POSITION_NONE,
            "models/vibevoice_acoustic_tokenizer/modeling_vibevoice_acoustic_tokenizer.py "
            "(convolutional tokenizer)",
            WHY_CODEC),
    REFUSED("mimi", PE_POSITION_ROPE,
            "models/mimi/modeling_mimi.py (MimiRotaryEmbedding in the codec's transformer over "
            "audio frames)",
            "a neural audio codec whose transformer uses RoPE over audio frames; posenc plans "
            "the token positions of text models"),
    REFUSED("chameleon_vqgan", PE_POSITION_NOPE,
            "models/chameleon/modeling_chameleon.py (ChameleonVQVAE: convolutional encoder with "
            "spatial attention blocks, no positions)",
            WHY_VQGAN),
    REFUSED("emu3_vqgan", PE_POSITION_NOPE,
            "models/emu3/modeling_emu3.py (Emu3VQVAE: Emu3VQVAEAttentionBlock, no positions)",
            WHY_VQGAN),
    REFUSED("janus_vqgan", PE_POSITION_NOPE,
            "models/janus/modeling_janus.py (JanusVQVAE: JanusVQVAEAttnBlock, no positions)",
            WHY_VQGAN),
    /* speech encoder-decoders and speech models */
    REFUSED("speech_to_text", PE_POSITION_SINUSOIDAL,
            "models/speech_to_text/modeling_speech_to_text.py "
            "(Speech2TextSinusoidalPositionalEmbedding in encoder and decoder)",
            "an encoder-decoder over audio frames with sinusoidal tables in both stacks; posenc "
            "plans decoder-only and T5 text models"),
    REFUSED("speecht5", PE_POSITION_RELATIVE,
            "models/speecht5/modeling_speecht5.py (encoder: SpeechT5RelativePositionalEncoding; "
            "decoder: SpeechT5SinusoidalPositionalEmbedding; speech prenet: scaled sinusoidal)",
            "a speech encoder-decoder: relative positions in the encoder and sinusoidal tables "
            "elsewhere; posenc plans decoder-only and T5 text models"),
    REFUSED("seamless_m4t", PE_POSITION_RELATIVE,
            "models/seamless_m4t/modeling_seamless_m4t.py (speech encoder: conformer with "
            "position_embeddings_type default \"relative\"; text stacks: "
            "SeamlessM4TSinusoidalPositionalEmbedding)",
            WHY_SEAMLESS),
    REFUSED("seamless_m4t_v2", PE_POSITION_RELATIVE,
            "models/seamless_m4t_v2/modeling_seamless_m4t_v2.py (speech encoder: Shaw "
            "relative_key default; text stacks: SeamlessM4Tv2SinusoidalPositionalEmbedding)",
            WHY_SEAMLESS),
    REFUSED("moonshine", PE_POSITION_ROPE,
            "models/moonshine/modeling_moonshine.py (MoonshineRotaryEmbedding, partial rotary, "
            "in encoder and decoder)",
            "a speech encoder-decoder with partial RoPE in both stacks; posenc plans "
            "decoder-only text models (the encoder's RoPE is over audio frames)"),
    REFUSED("moonshine_streaming", PE_POSITION_ROPE,
            "models/moonshine_streaming/modeling_moonshine_streaming.py (decoder: "
            "MoonshineStreamingRotaryEmbedding and a learned pos_emb over encoder states; "
            "encoder: sliding-window attention)",
            "a streaming speech encoder-decoder (RoPE in the decoder, a learned table over "
            "encoder frames); posenc plans decoder-only text models"),
    REFUSED("moonshine_streaming_encoder", PE_POSITION_NOPE,
            "models/moonshine_streaming/modeling_moonshine_streaming.py "
            "(MoonshineStreamingEncoderAttention: sliding windows, no rotary)",
            "a streaming speech encoder: sliding-window attention with no position encoding of "
            "its own; posenc plans the token positions of text models"),
    REFUSED("dia", PE_POSITION_ROPE,
            "models/dia/modeling_dia.py (DiaRotaryEmbedding in encoder and decoder)",
            "a text-to-speech encoder-decoder with RoPE in both stacks over text and audio "
            "codes; posenc plans decoder-only text models"),
    REFUSED("dia_encoder", PE_POSITION_ROPE,
            "models/dia/modeling_dia.py (DiaEncoder: DiaRotaryEmbedding)",
            "the text encoder of Dia (text-to-speech), bidirectional with RoPE; posenc plans "
            "decoder-only text models"),
    REFUSED("dia_decoder", PE_POSITION_ROPE,
            "models/dia/modeling_dia.py (DiaDecoder: DiaRotaryEmbedding over multi-channel audio "
            "codes)",
            "the audio-code decoder of Dia (text-to-speech), RoPE over codec frames; posenc "
            "plans decoder-only text models"),
    REFUSED("bark", PE_POSITION_LEARNED,
            "models/bark/modeling_bark.py (BarkCausalModel/BarkFineModel: position_embeds_layer "
            "nn.Embedding(block_size))",
            "a text-to-audio model: GPT-style causal transformers over semantic and codec tokens "
            "with a learned table; posenc plans text models"),
    REFUSED("clvp", PE_POSITION_ROPE,
            "models/clvp/modeling_clvp.py (encoders: ClvpRotaryPositionalEmbedding; decoder: "
            "position_embeds_layer)",
            "a speech-text contrastive model (RoPE in its encoders, a learned table in its "
            "decoder); posenc plans the token positions of text LLMs"),
    REFUSED("clvp_encoder", PE_POSITION_ROPE,
            "models/clvp/modeling_clvp.py (ClvpEncoder: ClvpRotaryPositionalEmbedding when "
            "use_rotary_embedding)",
            "a contrastive text or speech encoder with RoPE; posenc plans the token positions of "
            "text LLMs"),
    REFUSED("clvp_decoder", PE_POSITION_LEARNED,
            "models/clvp/modeling_clvp.py (ClvpDecoder.position_embeds_layer, GPT-2 style)",
            "the speech-token decoder of CLVP: a learned absolute table; posenc plans the token "
            "positions of text LLMs"),
    REFUSED("pop2piano", PE_POSITION_T5,
            "models/pop2piano/modeling_pop2piano.py (T5 relative attention buckets over audio "
            "features and MIDI tokens)",
            "a T5 encoder-decoder from audio to MIDI tokens; posenc plans text T5 models by "
            "their own model_type"),
    REFUSED("audio-spectrogram-transformer", PE_POSITION_LEARNED,
            "models/audio_spectrogram_transformer/modeling_audio_spectrogram_transformer.py "
            "(ASTEmbeddings.position_embeddings)",
            "an audio encoder over spectrogram patches with a learned table; posenc plans the "
            "token positions of text models"),
    /* dual encoders (image-text, audio-text, video-text) and their towers */
    REFUSED("clip", PE_POSITION_LEARNED,
            "models/clip/modeling_clip.py (CLIPVisionEmbeddings and CLIPTextEmbeddings: learned "
            "tables)",
            WHY_DUAL),
    REFUSED("clip_text_model", PE_POSITION_LEARNED,
            "models/clip/modeling_clip.py (CLIPTextEmbeddings.position_embedding)",
            WHY_TEXT_TOWER),
    REFUSED("clip_vision_model", PE_POSITION_LEARNED,
            "models/clip/modeling_clip.py (CLIPVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("siglip", PE_POSITION_LEARNED,
            "models/siglip/modeling_siglip.py (SiglipVisionEmbeddings, SiglipTextEmbeddings)",
            WHY_DUAL),
    REFUSED("siglip_text_model", PE_POSITION_LEARNED,
            "models/siglip/modeling_siglip.py (SiglipTextEmbeddings.position_embedding)",
            WHY_TEXT_TOWER),
    REFUSED("siglip_vision_model", PE_POSITION_LEARNED,
            "models/siglip/modeling_siglip.py (SiglipVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("siglip2", PE_POSITION_LEARNED,
            "models/siglip2/modeling_siglip2.py (Siglip2VisionEmbeddings: a learned grid resized "
            "per image; Siglip2TextEmbeddings)",
            WHY_DUAL),
    REFUSED("siglip2_text_model", PE_POSITION_LEARNED,
            "models/siglip2/modeling_siglip2.py (Siglip2TextEmbeddings.position_embedding)",
            WHY_TEXT_TOWER),
    REFUSED("siglip2_vision_model", PE_POSITION_LEARNED,
            "models/siglip2/modeling_siglip2.py (Siglip2VisionEmbeddings: learned grid, resized)",
            WHY_VISION_TOWER),
    REFUSED("metaclip_2", PE_POSITION_LEARNED,
            "models/metaclip_2/modeling_metaclip_2.py (MetaClip2VisionEmbeddings, "
            "MetaClip2TextEmbeddings)",
            WHY_DUAL),
    REFUSED("metaclip_2_text_model", PE_POSITION_LEARNED,
            "models/metaclip_2/modeling_metaclip_2.py (MetaClip2TextEmbeddings)",
            WHY_TEXT_TOWER),
    REFUSED("metaclip_2_vision_model", PE_POSITION_LEARNED,
            "models/metaclip_2/modeling_metaclip_2.py (MetaClip2VisionEmbeddings)",
            WHY_VISION_TOWER),
    REFUSED("aimv2", PE_POSITION_LEARNED,
            "models/aimv2/modeling_aimv2.py (Aimv2VisionEmbeddings, Aimv2TextEmbeddings)",
            WHY_DUAL),
    REFUSED("aimv2_text_model", PE_POSITION_LEARNED,
            "models/aimv2/modeling_aimv2.py (Aimv2TextEmbeddings.position_embedding)",
            WHY_TEXT_TOWER),
    REFUSED("align", PE_POSITION_LEARNED,
            "models/align/modeling_align.py (AlignTextEmbeddings: BERT's learned table; the "
            "vision tower is an EfficientNet)",
            WHY_DUAL),
    REFUSED("align_text_model", PE_POSITION_LEARNED,
            "models/align/modeling_align.py (AlignTextEmbeddings.position_embeddings)",
            WHY_TEXT_TOWER),
    REFUSED("altclip", PE_POSITION_LEARNED,
            "models/altclip/modeling_altclip.py (AltRobertaEmbeddings, AltCLIPVisionEmbeddings)",
            WHY_DUAL),
    REFUSED("altclip_text_model", PE_POSITION_LEARNED,
            "models/altclip/modeling_altclip.py (AltRobertaEmbeddings.position_embeddings)",
            WHY_TEXT_TOWER),
    REFUSED("altclip_vision_model", PE_POSITION_LEARNED,
            "models/altclip/modeling_altclip.py (AltCLIPVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("chinese_clip", PE_POSITION_LEARNED,
            "models/chinese_clip/modeling_chinese_clip.py (ChineseCLIPTextEmbeddings, "
            "ChineseCLIPVisionEmbeddings)",
            WHY_DUAL),
    REFUSED("chinese_clip_text_model", PE_POSITION_LEARNED,
            "models/chinese_clip/modeling_chinese_clip.py "
            "(ChineseCLIPTextEmbeddings.position_embeddings)",
            WHY_TEXT_TOWER),
    REFUSED("chinese_clip_vision_model", PE_POSITION_LEARNED,
            "models/chinese_clip/modeling_chinese_clip.py "
            "(ChineseCLIPVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("clipseg", PE_POSITION_LEARNED,
            "models/clipseg/modeling_clipseg.py (CLIPSegVisionEmbeddings, CLIPSegTextEmbeddings)",
            WHY_DUAL),
    REFUSED("clipseg_text_model", PE_POSITION_LEARNED,
            "models/clipseg/modeling_clipseg.py (CLIPSegTextEmbeddings)",
            WHY_TEXT_TOWER),
    REFUSED("clipseg_vision_model", PE_POSITION_LEARNED,
            "models/clipseg/modeling_clipseg.py (CLIPSegVisionEmbeddings)",
            WHY_VISION_TOWER),
    REFUSED("groupvit", PE_POSITION_LEARNED,
            "models/groupvit/modeling_groupvit.py (GroupViTVisionEmbeddings, "
            "GroupViTTextEmbeddings)",
            WHY_DUAL),
    REFUSED("groupvit_text_model", PE_POSITION_LEARNED,
            "models/groupvit/modeling_groupvit.py (GroupViTTextEmbeddings)",
            WHY_TEXT_TOWER),
    REFUSED("groupvit_vision_model", PE_POSITION_LEARNED,
            "models/groupvit/modeling_groupvit.py (GroupViTVisionEmbeddings.position_embeddings)",
            WHY_VISION_TOWER),
    REFUSED("owlvit", PE_POSITION_LEARNED,
            "models/owlvit/modeling_owlvit.py (OwlViTVisionEmbeddings, OwlViTTextEmbeddings)",
            WHY_DUAL),
    REFUSED("owlvit_text_model", PE_POSITION_LEARNED,
            "models/owlvit/modeling_owlvit.py (OwlViTTextEmbeddings)",
            WHY_TEXT_TOWER),
    REFUSED("owlvit_vision_model", PE_POSITION_LEARNED,
            "models/owlvit/modeling_owlvit.py (OwlViTVisionEmbeddings)",
            WHY_VISION_TOWER),
    REFUSED("owlv2", PE_POSITION_LEARNED,
            "models/owlv2/modeling_owlv2.py (Owlv2VisionEmbeddings, Owlv2TextEmbeddings)",
            WHY_DUAL),
    REFUSED("owlv2_text_model", PE_POSITION_LEARNED,
            "models/owlv2/modeling_owlv2.py (Owlv2TextEmbeddings)",
            WHY_TEXT_TOWER),
    REFUSED("owlv2_vision_model", PE_POSITION_LEARNED,
            "models/owlv2/modeling_owlv2.py (Owlv2VisionEmbeddings)",
            WHY_VISION_TOWER),
    REFUSED("xclip", PE_POSITION_LEARNED,
            "models/x_clip/modeling_x_clip.py (XCLIPVisionEmbeddings, XCLIPTextEmbeddings)",
            WHY_DUAL),
    REFUSED("xclip_text_model", PE_POSITION_LEARNED,
            "models/x_clip/modeling_x_clip.py (XCLIPTextEmbeddings)",
            WHY_TEXT_TOWER),
    REFUSED("xclip_vision_model", PE_POSITION_LEARNED,
            "models/x_clip/modeling_x_clip.py (XCLIPVisionEmbeddings)",
            WHY_VISION_TOWER),
    REFUSED("clap", PE_POSITION_RELATIVE,
            "models/clap/modeling_clap.py (audio: Swin-style relative bias; text: "
            "ClapTextEmbeddings, RoBERTa's learned table)",
            "an audio-text dual encoder (relative bias over spectrogram windows, a learned text "
            "table); posenc plans the token positions of text LLMs"),
    REFUSED("clap_text_model", PE_POSITION_LEARNED,
            "models/clap/modeling_clap.py (ClapTextEmbeddings.position_embeddings)",
            WHY_TEXT_TOWER),
    REFUSED("blip", PE_POSITION_LEARNED,
            "models/blip/modeling_blip.py (BlipVisionEmbeddings, BlipTextEmbeddings)",
            WHY_DUAL),
    REFUSED("blip_text_model", PE_POSITION_LEARNED,
            "models/blip/modeling_blip_text.py (BlipTextEmbeddings.position_embeddings)",
            WHY_TEXT_TOWER),
    REFUSED("blip_vision_model", PE_POSITION_LEARNED,
            "models/blip/modeling_blip.py (BlipVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("bridgetower", PE_POSITION_LEARNED,
            "models/bridgetower/modeling_bridgetower.py (BridgeTowerVisionEmbeddings, "
            "BridgeTowerTextEmbeddings)",
            WHY_DUAL),
    REFUSED("bridgetower_text_model", PE_POSITION_LEARNED,
            "models/bridgetower/modeling_bridgetower.py "
            "(BridgeTowerTextEmbeddings.position_embeddings)",
            WHY_TEXT_TOWER),
    REFUSED("bridgetower_vision_model", PE_POSITION_LEARNED,
            "models/bridgetower/modeling_bridgetower.py "
            "(BridgeTowerVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("flava", PE_POSITION_LEARNED,
            "models/flava/modeling_flava.py (FlavaImageEmbeddings, FlavaTextEmbeddings)",
            WHY_DUAL),
    REFUSED("flava_image_model", PE_POSITION_LEARNED,
            "models/flava/modeling_flava.py (FlavaImageEmbeddings.position_embeddings)",
            WHY_VISION_TOWER),
    REFUSED("flava_text_model", PE_POSITION_LEARNED,
            "models/flava/modeling_flava.py (FlavaTextEmbeddings.position_embeddings)",
            WHY_TEXT_TOWER),
    REFUSED("flava_multimodal_model", PE_POSITION_NOPE,
            "models/flava/modeling_flava.py (FlavaMultimodalModel: a CLS token over the image "
            "and text towers' states, no table of its own)",
            "the fusion encoder of FLAVA: attention over the towers' states with no position "
            "table of its own; posenc plans the token positions of text LLMs"),
    REFUSED("pe_video", PE_POSITION_ROPE,
            "models/pe_video/modeling_pe_video.py (PeVideoEncoderRotaryEmbedding)",
            "a video-text dual encoder with RoPE over frames; posenc plans the token positions "
            "of text LLMs"),
    REFUSED("pe_video_encoder", PE_POSITION_ROPE,
            "models/pe_video/modeling_pe_video.py (PeVideoEncoderRotaryEmbedding)",
            "a video encoder with RoPE over frames; posenc plans the token positions of text LLMs"),
    REFUSED("pe_audio_video", PE_POSITION_ROPE,
            "models/pe_audio_video/modeling_pe_audio_video.py "
            "(PeAudioVideoEncoderRotaryEmbedding)",
            "an audio-video-text dual encoder with RoPE; posenc plans the token positions of "
            "text LLMs"),
    REFUSED("pe_audio_video_encoder", PE_POSITION_ROPE,
            "models/pe_audio_video/modeling_pe_audio_video.py "
            "(PeAudioVideoEncoderRotaryEmbedding)",
            "an audio-video encoder with RoPE; posenc plans the token positions of text LLMs"),
    /* vision-language encoders (not LLMs) */
    REFUSED("lxmert", PE_POSITION_LEARNED,
            "models/lxmert/modeling_lxmert.py (LxmertEmbeddings.position_embeddings; object "
            "features carry box coordinates)",
            "a vision-language encoder: a learned text table and box features for image regions; "
            "posenc plans the token positions of text LLMs"),
    REFUSED("vilt", PE_POSITION_LEARNED,
            "models/vilt/modeling_vilt.py (ViltEmbeddings: learned patch table and "
            "TextEmbeddings)",
            "a vision-language encoder: learned tables over text tokens and image patches; "
            "posenc plans the token positions of text LLMs"),
    REFUSED("tvp", PE_POSITION_LEARNED,
            "models/tvp/modeling_tvp.py (TvpTextInputEmbeddings.position_embeddings, "
            "TvpVisualInputEmbedding row/col tables)",
            "a video-language grounding encoder: learned text and row/column tables; posenc "
            "plans the token positions of text LLMs"),
    REFUSED("perceiver", PE_POSITION_LEARNED,
            "models/perceiver/modeling_perceiver.py (PerceiverTextPreprocessor: a learned table; "
            "image and audio preprocessors: trainable or Fourier position_encoding_type)",
            "a Perceiver: positions enter only through its modality preprocessors (learned or "
            "Fourier tables); posenc plans the token positions of text LLMs"),
    /* vision towers of vision-language models */
    REFUSED("qwen2_5_vl_vision", PE_POSITION_ROPE,
            "models/qwen2_5_vl/modeling_qwen2_5_vl.py (Qwen2_5_VisionRotaryEmbedding over patch "
            "rows and columns, window attention)",
            WHY_VISION_ROPE),
    REFUSED("qwen2_5_omni_vision_encoder", PE_POSITION_ROPE,
            "models/qwen2_5_omni/modeling_qwen2_5_omni.py (Qwen2_5_VisionRotaryEmbedding)",
            WHY_VISION_ROPE),
    REFUSED("qwen3_vl_vision", PE_POSITION_ROPE,
            "models/qwen3_vl/modeling_qwen3_vl.py (Qwen3VLVisionRotaryEmbedding plus an "
            "interpolated learned pos_embed)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("qwen3_vl_moe_vision", PE_POSITION_ROPE,
            "models/qwen3_vl_moe/modeling_qwen3_vl_moe.py (as Qwen3-VL: 2-D RoPE plus a learned "
            "pos_embed)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("qwen3_5_vision", PE_POSITION_ROPE,
            "models/qwen3_5/modeling_qwen3_5.py (Qwen3_5VisionRotaryEmbedding plus a learned "
            "pos_embed)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("qwen3_5_moe_vision", PE_POSITION_ROPE,
            "models/qwen3_5_moe/modeling_qwen3_5_moe.py (2-D RoPE plus a learned pos_embed)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("qwen3_omni_moe_vision_encoder", PE_POSITION_ROPE,
            "models/qwen3_omni_moe/modeling_qwen3_omni_moe.py (Qwen3OmniMoeVisionRotaryEmbedding "
            "plus a learned pos_embed)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("glm4v_vision", PE_POSITION_ROPE,
            "models/glm4v/modeling_glm4v.py (Glm4vVisionRotaryEmbedding plus "
            "Glm4vVisionEmbeddings' adapted learned table)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("glm4v_moe_vision", PE_POSITION_ROPE,
            "models/glm4v_moe/modeling_glm4v_moe.py (Glm4vMoeVisionRotaryEmbedding plus adapted "
            "learned table)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("glm_ocr_vision", PE_POSITION_ROPE,
            "models/glm_ocr/modeling_glm_ocr.py (GlmOcrVisionRotaryEmbedding)",
            WHY_VISION_ROPE),
    REFUSED("glm_image_vision", PE_POSITION_LEARNED,
            "models/glm_image/modeling_glm_image.py (GlmImageVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("glm_image_vqmodel", PE_POSITION_NONE,
            "models/glm_image/modeling_glm_image.py (GlmImageVQVAE: a vector quantizer between "
            "1x1 convolutions, no attention)",
            "no attention over token positions: the quantizer of an image tokenizer (a codebook "
            "between 1x1 convolutions)"),
    REFUSED("video_llama_3_vision", PE_POSITION_ROPE,
            "models/video_llama_3/modeling_video_llama_3.py (VideoLlama3VisionRotaryEmbedding)",
            WHY_VISION_ROPE),
    REFUSED("ernie4_5_vl_moe_vision", PE_POSITION_ROPE,
            "models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py "
            "(Ernie4_5_VLMoeVisionRotaryEmbedding)",
            WHY_VISION_ROPE),
    REFUSED("paddleocr_vl_vision", PE_POSITION_ROPE,
            "models/paddleocr_vl/modeling_paddleocr_vl.py (PaddleOCRVisionRotaryEmbedding plus "
            "an interpolated learned position_embedding)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("mlcd_vision_model", PE_POSITION_ROPE,
            "models/mlcd/modeling_mlcd.py (MLCDRotaryEmbedding over patch rows and columns, a "
            "class position)",
            WHY_VISION_ROPE),
    REFUSED("llama4_vision_model", PE_POSITION_ROPE,
            "models/llama4/modeling_llama4.py (Llama4VisionRotaryEmbedding: 2-D complex RoPE "
            "over patches)",
            WHY_VISION_ROPE),
    REFUSED("mllama_vision_model", PE_POSITION_LEARNED,
            "models/mllama/modeling_mllama.py (MllamaPrecomputedPositionEmbedding and "
            "aspect-ratio tile tables)",
            WHY_VISION_TOWER),
    REFUSED("idefics_vision", PE_POSITION_LEARNED,
            "models/idefics/vision.py (IdeficsVisionEmbeddings.position_embedding, CLIP's)",
            WHY_VISION_TOWER),
    REFUSED("idefics2_vision", PE_POSITION_LEARNED,
            "models/idefics2/modeling_idefics2.py (Idefics2VisionEmbeddings: nn.Embedding over "
            "bucketed patch coordinates)",
            WHY_VISION_TOWER),
    REFUSED("idefics3_vision", PE_POSITION_LEARNED,
            "models/idefics3/modeling_idefics3.py (Idefics3VisionEmbeddings: nn.Embedding over "
            "bucketed patch coordinates)",
            WHY_VISION_TOWER),
    REFUSED("smolvlm_vision", PE_POSITION_LEARNED,
            "models/smolvlm/modeling_smolvlm.py (SmolVLMVisionEmbeddings.position_embedding over "
            "bucketed coordinates)",
            WHY_VISION_TOWER),
    REFUSED("idefics_perciever", PE_POSITION_NOPE,
            "models/idefics/perceiver.py (IdeficsPerceiverResampler: latents attend to image "
            "features, no positions)",
            WHY_RESAMPLER),
    REFUSED("idefics2_perceiver", PE_POSITION_NOPE,
            "models/idefics2/modeling_idefics2.py (Idefics2PerceiverResampler: latents attend to "
            "image features, no positions)",
            WHY_RESAMPLER),
    REFUSED("internvl_vision", PE_POSITION_LEARNED,
            "models/internvl/modeling_internvl.py (InternVLVisionEmbeddings.position_embeddings)",
            WHY_VISION_TOWER),
    REFUSED("janus_vision_model", PE_POSITION_LEARNED,
            "models/janus/modeling_janus.py (JanusVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("kosmos_2_vision_model", PE_POSITION_LEARNED,
            "models/kosmos2/modeling_kosmos2.py (Kosmos2VisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("kosmos_2_5_vision_model", PE_POSITION_LEARNED,
            "models/kosmos2_5/modeling_kosmos2_5.py (row_embedder and column_embedder over "
            "patches)",
            WHY_VISION_TOWER),
    REFUSED("phi4_multimodal_vision", PE_POSITION_LEARNED,
            "models/phi4_multimodal/modeling_phi4_multimodal.py "
            "(Phi4MultimodalVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("blip_2_vision_model", PE_POSITION_LEARNED,
            "models/blip_2/modeling_blip_2.py (Blip2VisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("blip_2_qformer", PE_POSITION_NOPE,
            "models/blip_2/modeling_blip_2.py (Blip2QFormerModel: learned query tokens and a "
            "LayerNorm, no position table)",
            "the Q-Former of BLIP-2: learned query tokens cross-attend to image features with no "
            "position table; posenc plans the token positions of text LLMs"),
    REFUSED("instructblip_vision_model", PE_POSITION_LEARNED,
            "models/instructblip/modeling_instructblip.py "
            "(InstructBlipVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("instructblip_qformer", PE_POSITION_LEARNED,
            "models/instructblip/modeling_instructblip.py "
            "(InstructBlipQFormerEmbeddings.position_embeddings)",
            WHY_QFORMER),
    REFUSED("instructblipvideo_vision_model", PE_POSITION_LEARNED,
            "models/instructblipvideo/modeling_instructblipvideo.py "
            "(InstructBlipVideoVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("instructblipvideo_qformer", PE_POSITION_LEARNED,
            "models/instructblipvideo/modeling_instructblipvideo.py "
            "(InstructBlipVideoQFormerEmbeddings.position_embeddings)",
            WHY_QFORMER),
    REFUSED("git_vision_model", PE_POSITION_LEARNED,
            "models/git/modeling_git.py (GitVisionEmbeddings.position_embedding)",
            WHY_VISION_TOWER),
    REFUSED("pix2struct_vision_model", PE_POSITION_LEARNED,
            "models/pix2struct/modeling_pix2struct.py (Pix2StructVisionEmbeddings: row_embedder "
            "and column_embedder)",
            WHY_VISION_TOWER),
    REFUSED("florence_vision", PE_POSITION_LEARNED,
            "models/florence2/modeling_florence2.py "
            "(Florence2VisionLearnedAbsolutePositionEmbedding2D, "
            "Florence2VisionPositionalEmbeddingCosine1D)",
            WHY_VISION_TOWER),
    REFUSED("dinov3_vit", PE_POSITION_ROPE,
            "models/dinov3_vit/modeling_dinov3_vit.py (DINOv3ViTRopePositionEmbedding: 2-D RoPE "
            "over patches)",
            WHY_VISION_ROPE),
    /* image-to-text and generative vision models */
    REFUSED("git", PE_POSITION_LEARNED,
            "models/git/modeling_git.py (GitEmbeddings.position_embeddings over text tokens; "
            "CLIP-like vision encoder)",
            "an image-to-text model (a CLIP-like vision encoder feeding a BERT-like decoder with "
            "a learned table); posenc plans decoder LLMs by their own model_type"),
    REFUSED("pix2struct", PE_POSITION_T5,
            "models/pix2struct/modeling_pix2struct.py (text decoder: T5 relative attention "
            "buckets; vision encoder: row/column tables)",
            "an image-to-text encoder-decoder (row/column tables over patches, a T5-style "
            "decoder); posenc plans text T5 models by their own model_type"),
    REFUSED("pix2struct_text_model", PE_POSITION_T5,
            "models/pix2struct/modeling_pix2struct.py (Pix2StructTextModel: T5 relative "
            "attention buckets)",
            "the decoder of Pix2Struct (T5-style relative buckets over text, cross-attending to "
            "image patches); not a text LLM posenc plans"),
    REFUSED("trocr", PE_POSITION_LEARNED,
            "models/trocr/modeling_trocr.py (TrOCRLearnedPositionalEmbedding when "
            "use_learned_position_embeddings, default True; TrOCRSinusoidalPositionalEmbedding "
            "otherwise)",
            "the text decoder of an OCR encoder-decoder (a learned table, offset 2, by default); "
            "posenc plans decoder-only LLMs"),
    REFUSED("imagegpt", PE_POSITION_LEARNED,
            "models/imagegpt/modeling_imagegpt.py (ImageGPTModel.wpe over pixel positions)",
            "a GPT-2 over image pixels (a learned table over pixel positions); posenc plans text "
            "LLMs"),
    REFUSED("decision_transformer", PE_POSITION_LEARNED,
            "models/decision_transformer/modeling_decision_transformer.py (embed_timestep over "
            "episode timesteps, added to return, state and action embeddings; "
            "DecisionTransformerGPT2Model.wpe over the interleaved sequence)",
            "a reinforcement-learning model: learned tables over episode timesteps and the "
            "interleaved return/state/action sequence; posenc plans text LLMs"),
    REFUSED("florence2", PE_POSITION_LEARNED,
            "models/florence2/modeling_florence2.py (DaViT vision encoder with learned 2-D "
            "tables; language_model = AutoModel.from_config(text_config), a BART encoder-decoder)",
            "a vision-language encoder-decoder (DaViT encoder, BART language model with learned "
            "tables); posenc plans decoder-only and T5 models"),
    /* time series */
    REFUSED("time_series_transformer", PE_POSITION_SINUSOIDAL,
            "models/time_series_transformer/modeling_time_series_transformer.py "
            "(TimeSeriesSinusoidalPositionalEmbedding)",
            WHY_TIMESERIES),
    REFUSED("informer", PE_POSITION_SINUSOIDAL,
            "models/informer/modeling_informer.py (InformerSinusoidalPositionalEmbedding)",
            WHY_TIMESERIES),
    REFUSED("autoformer", PE_POSITION_SINUSOIDAL,
            "models/autoformer/modeling_autoformer.py (AutoformerSinusoidalPositionalEmbedding)",
            WHY_TIMESERIES),
    REFUSED("patchtst", PE_POSITION_SINUSOIDAL,
            "models/patchtst/modeling_patchtst.py (PatchTSTPositionalEncoding: "
            "positional_encoding_type default \"sincos\", \"random\" learned)",
            WHY_TIMESERIES),
    REFUSED("patchtsmixer", PE_POSITION_NONE,
            "models/patchtsmixer/modeling_patchtsmixer.py (an MLP mixer; "
            "PatchTSMixerPositionalEncoding only when use_positional_encoding, default False)",
            "a time-series MLP mixer over patches (no positions unless use_positional_encoding); "
            "posenc plans the token positions of text models"),
    REFUSED("timesfm", PE_POSITION_SINUSOIDAL,
            "models/timesfm/modeling_timesfm.py (TimesFmPositionalEmbedding when "
            "use_positional_embedding, default False)",
            WHY_TIMESERIES),
    REFUSED("timesfm2_5", PE_POSITION_ROPE,
            "models/timesfm2_5/modeling_timesfm2_5.py (TimesFm2_5RotaryEmbedding over time "
            "patches)",
            WHY_TIMESERIES),
    /* video */
    REFUSED("videomae", PE_POSITION_SINUSOIDAL,
            "models/videomae/modeling_videomae.py (get_sinusoid_encoding_table: a fixed table "
            "over tubelets)",
            WHY_VIDEO),
    REFUSED("vivit", PE_POSITION_LEARNED,
            "models/vivit/modeling_vivit.py (VivitEmbeddings.position_embeddings over tubelets)",
            WHY_VIDEO),
    REFUSED("timesformer", PE_POSITION_LEARNED,
            "models/timesformer/modeling_timesformer.py (TimesformerEmbeddings: learned space "
            "and time tables)",
            WHY_VIDEO),
    REFUSED("vjepa2", PE_POSITION_ROPE,
            "models/vjepa2/modeling_vjepa2.py (VJEPA2RopeAttention: 3-D RoPE over time, height "
            "and width)",
            WHY_VIDEO),
    /* keypoint matchers and document layout */
    REFUSED("lightglue", PE_POSITION_ROPE,
            "models/lightglue/modeling_lightglue.py (LightGluePositionalEncoder: rotary encoding "
            "of projected keypoint coordinates)",
            "a keypoint matcher: a rotary encoding of keypoint image coordinates; no token "
            "positions for posenc to plan"),
    REFUSED("efficientloftr", PE_POSITION_ROPE,
            "models/efficientloftr/modeling_efficientloftr.py (EfficientLoFTRRotaryEmbedding "
            "over feature-map rows and columns)",
            "a dense image matcher: 2-D RoPE over feature-map positions; no token positions for "
            "posenc to plan"),
    REFUSED("pp_doclayout_v2", PE_POSITION_SINUSOIDAL,
            "models/pp_doclayout_v2/modeling_pp_doclayout_v2.py "
            "(PPDocLayoutV2SinePositionEmbedding; PPDocLayoutV2PositionRelationEmbedding between "
            "boxes; a reading-order text table)",
            WHY_DETR),
    REFUSED("pp_doclayout_v3", PE_POSITION_SINUSOIDAL,
            "models/pp_doclayout_v3/modeling_pp_doclayout_v3.py "
            "(PPDocLayoutV3SinePositionEmbedding)",
            WHY_DETR),
    /* read in newer trees (see docs/FAMILIES.md section 3.3 for the commits) */
    REFUSED("gemma4_vision", PE_POSITION_ROPE,
            "models/gemma4/modeling_gemma4.py (Gemma4VisionPatchEmbedder: a learned per-axis "
            "position_embedding_table; multidimensional vision RoPE in attention)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("gemma4_audio", PE_POSITION_RELATIVE,
            "models/gemma4/modeling_gemma4.py (Gemma4AudioRelPositionalEncoding: sinusoidal "
            "relative encodings over a chunked local context)",
            "a conformer audio encoder: sinusoidal relative positions over a chunked local "
            "context; posenc plans the language model (read the checkpoint's config.json)"),
    REFUSED("radio", PE_POSITION_LEARNED,
            "models/radio/modular_radio.py (RadioPatchEmbeddings: a learned table cropped and "
            "interpolated to the image; DINOv2 layers)",
            WHY_VIT_LEARNED),
    REFUSED("sapiens2", PE_POSITION_ROPE,
            "models/sapiens2/modular_sapiens2.py (built on "
            "DINOv3ViTEmbeddings/DINOv3ViTAttention: 2-D RoPE over patches)",
            "a human-centric vision model on a DINOv3 ViT: 2-D RoPE over image patches; posenc "
            "plans the token positions of text models"),
    REFUSED("tipsv2", PE_POSITION_LEARNED,
            "models/tipsv2/modular_tipsv2.py (vision: Dinov2WithRegistersEmbeddings, a learned "
            "table; text: Speech2TextSinusoidalPositionalEmbedding)",
            "an image-text dual encoder (a learned table over patches, a sinusoidal text table); "
            "posenc plans the token positions of text LLMs"),
    REFUSED("tipsv2_vision_model", PE_POSITION_LEARNED,
            "models/tipsv2/modular_tipsv2.py "
            "(Tipsv2VisionEmbeddings(Dinov2WithRegistersEmbeddings), interpolated)",
            WHY_VIT_LEARNED),
    REFUSED("tipsv2_text_model", PE_POSITION_SINUSOIDAL,
            "models/tipsv2/modular_tipsv2.py (Speech2TextSinusoidalPositionalEmbedding added "
            "after scaling by sqrt(hidden_size))",
            "the text tower of a dual encoder: a fixed sinusoidal table; posenc plans the token "
            "positions of text LLMs"),
    REFUSED("videoprism", PE_POSITION_LEARNED,
            "models/videoprism/modular_videoprism.py (VideoPrismSpatialEmbeddings and "
            "VideoPrismTemporalEmbeddings: learned space and time tables)",
            "a video-text dual encoder with factorized learned space and time tables; posenc "
            "plans the token positions of text LLMs"),
    REFUSED("videoprism_vision_model", PE_POSITION_LEARNED,
            "models/videoprism/modular_videoprism.py (VideoPrismSpatialEmbeddings, "
            "VideoPrismTemporalEmbeddings)",
            WHY_VIDEO),
    REFUSED("slanext", PE_POSITION_LEARNED,
            "models/slanext/modeling_slanext.py (SLANeXt vision encoder: pos_embed when "
            "use_abs_pos, default True, and decomposed relative positions when use_rel_pos; a "
            "GRU-cell decoder)",
            "a table-structure recognizer: a SAM-style vision encoder (learned absolute table, "
            "relative positions) and a recurrent decoder; no token positions for posenc to plan"),
    REFUSED("uvdoc", PE_POSITION_NONE,
            "models/uvdoc/modeling_uvdoc.py (UVDocResNet, UVDocBridge: dilated convolutions)",
            "no attention over token positions: a convolutional document-unwarping model"),
    REFUSED("uvdoc_backbone", PE_POSITION_NONE,
            "models/uvdoc/modeling_uvdoc.py (UVDocBackbone: convolutional)",
            WHY_CONVNET),
    REFUSED("chmv2", PE_POSITION_NONE,
            "models/chmv2/modeling_chmv2.py (reassemble and fusion convolutions over "
            "load_backbone(config))",
            WHY_HEAD),
    REFUSED("pp_lcnet", PE_POSITION_NONE,
            "models/pp_lcnet/modeling_pp_lcnet.py",
            WHY_CONVNET),
    REFUSED("pp_lcnet_v3", PE_POSITION_NONE,
            "models/pp_lcnet_v3/modeling_pp_lcnet_v3.py",
            WHY_CONVNET),
    REFUSED("pp_ocrv5_mobile_det", PE_POSITION_NONE,
            "models/pp_ocrv5_mobile_det/modeling_pp_ocrv5_mobile_det.py (a convolutional text "
            "detector over load_backbone(config))",
            WHY_HEAD),
    REFUSED("pp_ocrv5_server_det", PE_POSITION_NONE,
            "models/pp_ocrv5_server_det/modeling_pp_ocrv5_server_det.py (a convolutional text "
            "detector over load_backbone(config))",
            WHY_HEAD),
    REFUSED("pp_ocrv5_mobile_rec", PE_POSITION_NOPE,
            "models/pp_ocrv5_mobile_rec/modeling_pp_ocrv5_mobile_rec.py "
            "(PPOCRV5MobileRecAttention over flattened conv features, no position table)",
            "a text-line recognizer: attention over convolutional features with no position "
            "encoding of its own; no token positions for posenc to plan"),
    REFUSED("pp_ocrv5_server_rec", PE_POSITION_NOPE,
            "models/pp_ocrv5_server_rec/modeling_pp_ocrv5_server_rec.py "
            "(PPOCRV5ServerRecAttention over flattened conv features, no position table)",
            "a text-line recognizer: attention over convolutional features with no position "
            "encoding of its own; no token positions for posenc to plan"),
    /* vision and audio towers read in copies of newer files found by class name */
    REFUSED("inkling_vision", PE_POSITION_NONE,
            "models/inkling/modeling_inkling.py (InklingVisionModel: an hMLP patch encoder, "
            "folds of space-time patches through bias-free Linear layers, no attention)",
            "an hMLP patch encoder with no attention over positions; posenc plans the language "
            "model (read the checkpoint's config.json)"),
    REFUSED("inkling_audio", PE_POSITION_NONE,
            "models/inkling/modeling_inkling.py (dMEL audio: embeddings of quantized mel bins "
            "summed per frame, no attention)",
            "an audio embedder (quantized mel bins, embedded and summed) with no attention over "
            "positions; posenc plans the language model (read the checkpoint's config.json)"),
    REFUSED("muse_glimmer_vision", PE_POSITION_ROPE,
            "models/muse_glimmer/modeling_muse_glimmer.py (MuseGlimmerVisionPatchEmbedder: a "
            "bilinearly resampled learned grid; MuseGlimmerVisionRotaryEmbedding: two-axis "
            "vision RoPE)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("kimi_k25_vision", PE_POSITION_ROPE,
            "models/kimi_k25/modeling_kimi_k25.py (MoonViT3d: a spatial/temporal position table, "
            "pos_emb_type default \"divided_fixed\", plus 2-D RoPE over patches)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("minimax_m3_vl_vision", PE_POSITION_ROPE,
            "models/minimax_m3_vl/modeling_minimax_m3_vl.py (MiniMaxM3VLVisionRotaryEmbedding: "
            "3-D RoPE over the (T, H, W) patch grid)",
            WHY_VISION_ROPE),
    REFUSED("hunyuan_vl_vision", PE_POSITION_LEARNED,
            "models/hunyuan_vl/modeling_hunyuan_vl.py (HunYuanVL vision: a learned position grid "
            "bilinearly interpolated to each image, interpolate_mode \"bilinear\")",
            WHY_VISION_TOWER),
    REFUSED("exaone4_5_vision", PE_POSITION_ROPE,
            "models/exaone4_5/modular_exaone4_5.py "
            "(Exaone4_5_VisionConfig(Qwen2_5_VLVisionConfig), Qwen2_5_VLVisionAttention with "
            "apply_rotary_pos_emb_vision)",
            WHY_VISION_ROPE),
    REFUSED("minicpmv4_6_vision", PE_POSITION_LEARNED,
            "models/minicpmv4_6/modular_minicpmv4_6.py "
            "(MiniCPMV4_6VisionConfig(SiglipVisionConfig); position ids bucketized per image "
            "grid into a learned table)",
            WHY_VISION_TOWER),
    REFUSED("qianfan_ocr_vision", PE_POSITION_LEARNED,
            "models/qianfan_ocr/modular_qianfan_ocr.py "
            "(QianfanOCRVisionConfig(InternVLVisionConfig), InternVLVisionEmbeddings)",
            WHY_VISION_TOWER),
    REFUSED("step3p5_vision", PE_POSITION_ROPE,
            "models/step3p7/modular_step3p7.py (Step3p7VisionConfig(SiglipVisionConfig), "
            "model_type \"step3p5_vision\"; Step3p7VisionRope2D: 2-D RoPE, interleaved pairs)",
            WHY_VISION_ROPE),
    REFUSED("cosmos3_edge_vision", PE_POSITION_LEARNED,
            "models/cosmos3_edge/modular_cosmos3_edge.py "
            "(Cosmos3EdgeVisionConfig(Siglip2VisionConfig): a learned reference position grid)",
            WHY_VISION_TOWER),
    REFUSED("cohere_compass_vision", PE_POSITION_ROPE,
            "models/cohere_compass/modular_cohere_compass.py "
            "(CohereCompassVisionConfig(Qwen3VLVisionConfig): Qwen3-VL's vision tower)",
            WHY_VISION_ROPE_LEARNED),
    REFUSED("deepseek_ocr2_sam_vision_model", PE_POSITION_LEARNED,
            "models/deepseek_ocr2/modular_deepseek_ocr2.py "
            "(DeepseekOcr2SamVisionConfig(SamVisionConfig): SAM's pos_embed and relative "
            "positions, windowed)",
            WHY_SAM),
    REFUSED("deepseek_ocr2_encoder", PE_POSITION_ROPE,
            "models/deepseek_ocr2/modular_deepseek_ocr2.py "
            "(DeepseekOcr2VisionEncoder(Qwen2Model): Qwen2 layers with RoPE over SAM tokens "
            "followed by learned queries, a hybrid mask)",
            "a vision encoder built from Qwen2 layers (RoPE over image tokens and learned "
            "queries, bidirectional over the image); posenc plans the language model (read the "
            "checkpoint's config.json)"),
    REFUSED("deepseek_ocr2_vision", PE_POSITION_ROPE,
            "models/deepseek_ocr2/modular_deepseek_ocr2.py (DeepseekOcr2VisionConfig: a SAM "
            "encoder, learned and relative positions, feeding the Qwen2-layer encoder with RoPE)",
            "a vision tower (SAM, then Qwen2 layers with RoPE over image tokens and queries); "
            "posenc plans the language model (read the checkpoint's config.json)"),
    REFUSED("gemma4_unified_vision", PE_POSITION_LEARNED,
            "models/gemma4_unified/modular_gemma4_unified.py (Gemma4UnifiedVisionConfig: "
            "encoder-free, a Dense projection of merged patches plus a factorized 2-D learned "
            "table of mm_posemb_size)",
            "an encoder-free vision embedder (a projection plus a factorized 2-D learned table, "
            "no attention of its own); posenc plans the language model (read the checkpoint's "
            "config.json)"),
    REFUSED("gemma4_unified_audio", PE_POSITION_NONE,
            "models/gemma4_unified/modular_gemma4_unified.py (Gemma4UnifiedAudioConfig: "
            "encoder-free, raw waveform frames of audio_embed_dim samples projected)",
            "an encoder-free audio embedder (raw waveform frames projected, no attention or "
            "positions of its own); posenc plans the language model (read the checkpoint's "
            "config.json)"),
    /* speech, detection, codecs and others read in copies of newer files found by class name */
    REFUSED("qwen3_asr_encoder", PE_POSITION_SINUSOIDAL,
            "models/qwen3_asr/modular_qwen3_asr.py "
            "(Qwen3ASREncoderConfig(Qwen3OmniMoeAudioEncoderConfig): Qwen3-Omni's audio encoder, "
            "SinusoidsPositionEmbedding)",
            "an audio encoder: a fixed sinusoidal table over audio frames (restarted per chunk); "
            "posenc plans the language model (read the checkpoint's config.json)"),
    REFUSED("nemotron_asr_streaming_encoder", PE_POSITION_RELATIVE,
            "models/nemotron_asr_streaming/modular_nemotron_asr_streaming.py "
            "(NemotronAsrStreamingEncoderAttention(ParakeetEncoderAttention): Transformer-XL "
            "relative positions, sliding_window 71)",
            WHY_CONFORMER),
    REFUSED("nemotron_asr_streaming", PE_POSITION_RELATIVE,
            "models/nemotron_asr_streaming/modular_nemotron_asr_streaming.py "
            "(NemotronAsrStreamingConfig(ParakeetRNNTConfig): the streaming conformer encoder, "
            "relative positions; an LSTM prediction network)",
            WHY_CONFORMER),
    REFUSED("nemotron3_5_asr", PE_POSITION_RELATIVE,
            "models/nemotron3_5_asr/configuration_nemotron3_5_asr.py (an RNN-T over the "
            "nemotron_asr_streaming encoder, relative positions; LSTM prediction network)",
            WHY_CONFORMER),
    REFUSED("parakeet_rnnt", PE_POSITION_RELATIVE,
            "models/parakeet/modular_parakeet.py (ParakeetRNNTConfig: the Parakeet conformer "
            "encoder, relative positions; an LSTM prediction network)",
            WHY_CONFORMER),
    REFUSED("cohere_asr", PE_POSITION_RELATIVE,
            "models/cohere_asr/configuration_cohere_asr.py (encoder_config: "
            "ParakeetEncoderConfig, a conformer with relative positions; a transformer decoder "
            "over text)",
            "a speech encoder-decoder (a Parakeet conformer encoder with relative positions, a "
            "text decoder); posenc plans decoder-only and T5 text models"),
    REFUSED("granite_speech_plus_encoder", PE_POSITION_RELATIVE,
            "models/granite_speech_plus/modular_granite_speech_plus.py "
            "(GraniteSpeechPlusEncoderConfig(GraniteSpeechEncoderConfig): Granite Speech's "
            "conformer, Shaw relative positions, max_pos_emb)",
            "a conformer speech encoder: Shaw-style learned relative positions within blocks; "
            "posenc plans the token positions of text models"),
    REFUSED("rf_detr_dinov2", PE_POSITION_LEARNED,
            "models/rf_detr/modular_rf_detr.py (RfDetrDinov2Embeddings(Dinov2Embeddings): a "
            "learned table, windowed)",
            WHY_VIT_LEARNED),
    REFUSED("rf_detr", PE_POSITION_LEARNED,
            "models/rf_detr/modular_rf_detr.py (a detection transformer on the windowed DINOv2 "
            "backbone rf_detr_dinov2, a learned table)",
            "a detection transformer on a windowed DINOv2 backbone (a learned table over "
            "patches); posenc plans the token positions of text models"),
    REFUSED("deimv2", PE_POSITION_SINUSOIDAL,
            "models/deimv2/modular_deimv2.py (Deimv2Config(DFineConfig), D-FINE's hybrid encoder "
            "and decoder)",
            WHY_DETR),
    REFUSED("sam3_lite_text", PE_POSITION_SINUSOIDAL,
            "models/sam3_lite_text/modular_sam3_lite_text.py (SAM 3's geometry, DETR and mask "
            "stages, Sam3LiteText*Config(Sam3*Config), with a lighter text encoder)",
            WHY_SAM),
    REFUSED("sam3_lite_text_detr_encoder", PE_POSITION_SINUSOIDAL,
            "models/sam3_lite_text/modular_sam3_lite_text.py "
            "(Sam3LiteTextDETREncoderConfig(Sam3DETREncoderConfig): sine tables on image "
            "features)",
            WHY_SAM),
    REFUSED("sam3_lite_text_detr_decoder", PE_POSITION_SINUSOIDAL,
            "models/sam3_lite_text/modular_sam3_lite_text.py "
            "(Sam3LiteTextDETRDecoderConfig(Sam3DETRDecoderConfig): sine embeddings of box "
            "queries)",
            WHY_SAM),
    REFUSED("sam3_lite_text_geometry_encoder", PE_POSITION_SINUSOIDAL,
            "models/sam3_lite_text/modular_sam3_lite_text.py "
            "(Sam3LiteTextGeometryEncoderConfig(Sam3GeometryEncoderConfig): sine embeddings of "
            "prompt geometry)",
            WHY_SAM),
    REFUSED("sam3_lite_text_mask_decoder", PE_POSITION_NOPE,
            "models/sam3_lite_text/modular_sam3_lite_text.py "
            "(Sam3LiteTextMaskDecoderConfig(Sam3MaskDecoderConfig): prompt cross-attention, no "
            "position table)",
            "a segmentation mask decoder: cross-attention to prompts without positions of its "
            "own; no token positions for posenc to plan"),
    REFUSED("sam3_lite_text_text_model", PE_POSITION_LEARNED,
            "models/sam3_lite_text/modular_sam3_lite_text.py (Sam3LiteTextTextConfig: a "
            "MobileCLIP-style text encoder, max_position_embeddings 77, SiglipAttention and "
            "RepMixer blocks)",
            WHY_TEXT_TOWER),
    REFUSED("xcodec2", PE_POSITION_ROPE,
            "models/xcodec2/modular_xcodec2.py (Xcodec2Config(LlamaConfig): LlamaAttention with "
            "LlamaRotaryEmbedding in the codec's transformer; a Wav2Vec2-BERT semantic model)",
            "a neural audio codec whose transformer uses RoPE over codec frames (and a "
            "Wav2Vec2-BERT semantic encoder); posenc plans the token positions of text models"),
    REFUSED("videomt", PE_POSITION_LEARNED,
            "models/videomt/modular_videomt.py (VideomtConfig(EomtConfig), "
            "VideomtEmbeddings(EomtEmbeddings): EoMT's learned table per frame)",
            "a video segmentation model on a ViT (EoMT) with a learned table over each frame's "
            "patches; posenc plans the token positions of text models"),
    REFUSED("slanet", PE_POSITION_NONE,
            "models/slanet/modular_slanet.py (SLANetConfig: a PP-LCNet convolutional backbone, "
            "CSP-PAN, and SLANeXt's attention-GRU structure head)",
            "no attention over token positions: a convolutional table-structure recognizer with "
            "a recurrent decoder"),
    REFUSED("pp_ocrv6_small_rec", PE_POSITION_NOPE,
            "models/pp_ocrv6_small_rec/modular_pp_ocrv6_small_rec.py "
            "(PPOCRV6SmallRecConfig(PPOCRV5ServerRecConfig), PPOCRV5ServerRecEncoderWithSVTR: "
            "attention over conv features, no position table)",
            "a text-line recognizer: attention over convolutional features with no position "
            "encoding of its own; no token positions for posenc to plan"),
    REFUSED("nougat", PE_POSITION_LEARNED,
            "models/auto/configuration_auto.py at 88020a578f96 (nougat: "
            "VisionEncoderDecoderConfig): a Donut-Swin encoder, relative bias, and an mBART "
            "decoder with a learned table",
            "an image-to-text encoder-decoder (a Swin encoder with a relative bias, an mBART "
            "decoder with a learned table); posenc plans decoder-only and T5 models"),
    /* h25rest: model_types newer than the commits above, read in the zucchini-nlp fork of
     * transformers at decba1d2ea4e (2026-08-19), esmfold2 in huggingface/transformers at
     * 0609faf81122. */
    REFUSED("pp_formulanet", PE_POSITION_LEARNED,
            "models/pp_formulanet/modular_pp_formulanet.py at decba1d2ea4e (PPFormulaNetConfig: "
            "vision_config PPFormulaNetVisionConfig(SLANeXtVisionConfig), text_config "
            "PPFormulaNetTextConfig(MBartConfig), MBartDecoder)",
            "an image-to-formula encoder-decoder (an image encoder and an mBART decoder with a "
            "learned table); posenc plans decoder-only and T5 models"),
    REFUSED("pp_lcnet_v4", PE_POSITION_NONE,
            "models/pp_lcnet_v4/modular_pp_lcnet_v4.py at decba1d2ea4e (PPLCNetV4Config("
            "PPLCNetConfig), HGNetV2ConvLayer)",
            WHY_CONVNET),
    REFUSED("pp_ocrv6_medium_det", PE_POSITION_NONE,
            "models/pp_ocrv6_medium_det/modular_pp_ocrv6_medium_det.py at decba1d2ea4e ("
            "PPOCRV6MediumDetConfig(PPOCRV5ServerDetConfig))",
            "no attention over token positions: a convolutional text detector"),
    REFUSED("pp_ocrv6_small_det", PE_POSITION_NONE,
            "models/pp_ocrv6_small_det/modular_pp_ocrv6_small_det.py at decba1d2ea4e ("
            "PPOCRV6SmallDetConfig(PPOCRV5MobileDetConfig), PPLCNetDepthwiseSeparableConvLayer)",
            "no attention over token positions: a convolutional text detector"),
    REFUSED("pp_ocrv6_tiny_rec", PE_POSITION_NOPE,
            "models/pp_ocrv6_tiny_rec/modular_pp_ocrv6_tiny_rec.py at decba1d2ea4e ("
            "PPOCRV6TinyRecConfig(PPOCRV6SmallRecConfig): the small recognizer's SVTR attention "
            "over conv features, no position table)",
            "a text-line recognizer: attention over convolutional features with no position "
            "encoding of its own; no token positions for posenc to plan"),
    REFUSED("sapiens2_head", PE_POSITION_NONE,
            "models/sapiens2/configuration_sapiens2.py at decba1d2ea4e (Sapiens2HeadConfig: "
            "upsample_out_channels, upsample_kernel_sizes, use_pixel_shuffle)",
            "a dense-prediction head of upsampling convolutions over Sapiens2's features, with "
            "no attention over positions of its own: read the backbone's config"),
    REFUSED("tipsv2_dpt", PE_POSITION_NONE,
            "models/tipsv2_dpt/modular_tipsv2_dpt.py at decba1d2ea4e (Tipsv2DptConfig: a "
            "backbone loaded with load_backbone, DPT reassemble and DepthAnything neck)",
            WHY_HEAD),
    REFUSED("videoprism_text_model", PE_POSITION_SINUSOIDAL,
            "models/videoprism/modular_videoprism.py at decba1d2ea4e (VideoPrismTextEmbeddings: "
            "create_sinusoidal_positions(max_position_embeddings 64, hidden_size) added to the "
            "token embeddings)",
            "the text tower of a video-text dual encoder: a fixed sinusoidal table over at most "
            "64 tokens; posenc plans the token positions of text LLMs"),
    REFUSED("esmfold2", PE_POSITION_RELATIVE,
            "models/esmfold2/configuration_esmfold2.py at 0609faf81122 (EsmFold2Config: "
            "n_relative_residx_bins 32, n_relative_chain_bins 2, atom encoder spatial RoPE "
            "(atom_encoder_spatial_rope_base_frequency 20) and uid RoPE, esmc_config)",
            "a protein structure predictor: pair representations with binned relative residue "
            "and chain positions and 3-D spatial RoPE over atoms; no token positions for posenc "
            "to plan"),
    NULL,
};

const pe__family_group pe__families_hf_other = {.records = records};
