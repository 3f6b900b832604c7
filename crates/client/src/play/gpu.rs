//! The map on the GPU: one immutable vertex buffer and one `u32` index
//! buffer in raw miniquad, drawn in ranges (static world, each mover at its
//! offset, liquids last), with per-fragment distance fog.
//!
//! Why raw miniquad and not macroquad's meshes: those take `u16` indices
//! and at most 5,000 per draw call, and are uploaded again every frame;
//! a map is 2,000–12,000 triangles that never change. The only `unsafe`
//! in the client is here: macroquad hands out its rendering backend
//! through `get_internal_gl`, which is unsafe because the backend is a
//! global that its own batcher also uses. The batcher is flushed first,
//! and nothing else holds the backend while we draw.
#![allow(unsafe_code, reason = "macroquad's backend is reached only through get_internal_gl; see the module doc")]

use macroquad::miniquad::{
    BlendFactor, BlendState, BlendValue, BufferLayout, BufferSource, BufferType, BufferUsage, Bindings, Comparison,
    CullFace, Equation, PassAction, Pipeline, PipelineParams, ShaderMeta, ShaderSource, UniformBlockLayout, UniformDesc,
    UniformType, UniformsSource, VertexAttribute, VertexFormat,
};

use super::world_mesh::{SKY_COLOUR, WorldMesh};

/// Fog starts this far from the eye (units)…
const FOG_START: f32 = 1_200.0;
/// …and is thickest here.
const FOG_END: f32 = 6_000.0;

const VERTEX: &str = r"#version 100
attribute vec3 pos;
attribute vec3 normal;
attribute vec4 colour;
uniform mat4 view_proj;
uniform vec3 offset;
uniform vec3 eye;
varying lowp vec4 v_colour;
varying highp float v_dist;
varying highp vec3 v_pos;
varying mediump vec3 v_normal;
varying lowp float v_fog;
uniform vec2 fog_range;
void main() {
    vec3 p = pos + offset;
    gl_Position = view_proj * vec4(p, 1.0);
    v_colour = colour;
    v_dist = distance(p, eye);
    v_pos = pos;
    v_normal = normal;
    // Per vertex: faces are small next to the fog's thousands of units.
    v_fog = clamp((v_dist - fog_range.x) / (fog_range.y - fog_range.x), 0.0, 0.75);
}";

const FRAGMENT: &str = r"#version 100
precision mediump float;
varying lowp vec4 v_colour;
varying highp float v_dist;
varying highp vec3 v_pos;
varying mediump vec3 v_normal;
varying lowp float v_fog;
uniform vec3 fog_colour;
void main() {
    // A 64-unit grid along the face (not across it), fading with distance:
    // scale and motion read on walls and floors without any texture.
    vec3 cell = abs(fract(v_pos / 64.0 + 0.5) - 0.5) * 64.0;
    vec3 along = vec3(1.0) - abs(v_normal);
    vec3 near_line = (vec3(1.0) - clamp(cell, 0.0, 1.0)) * along;
    float line = max(max(near_line.x, near_line.y), near_line.z) * clamp(1.0 - v_dist / 1500.0, 0.0, 1.0);
    vec3 rgb = v_colour.rgb * (1.0 - 0.18 * line);
    gl_FragColor = vec4(mix(rgb, fog_colour, v_fog), v_colour.a);
}";

/// The same without the grid: cheaper per pixel on a software renderer.
const FRAGMENT_PLAIN: &str = r"#version 100
precision mediump float;
varying lowp vec4 v_colour;
varying lowp float v_fog;
uniform vec3 fog_colour;
void main() {
    gl_FragColor = vec4(mix(v_colour.rgb, fog_colour, v_fog), v_colour.a);
}";

#[repr(C)]
struct Uniforms {
    view_proj: [f32; 16],
    offset: [f32; 3],
    eye: [f32; 3],
    fog_colour: [f32; 3],
    fog_range: [f32; 2],
}

fn meta() -> ShaderMeta {
    ShaderMeta {
        images: Vec::new(),
        uniforms: UniformBlockLayout {
            uniforms: vec![
                UniformDesc::new("view_proj", UniformType::Mat4),
                UniformDesc::new("offset", UniformType::Float3),
                UniformDesc::new("eye", UniformType::Float3),
                UniformDesc::new("fog_colour", UniformType::Float3),
                UniformDesc::new("fog_range", UniformType::Float2),
            ],
        },
    }
}

/// Why the map could not be put on the GPU.
#[derive(Debug, thiserror::Error)]
#[error("the map shader did not compile: {0}")]
pub struct GpuError(String);

/// The map's buffers and the two pipelines that draw them.
pub struct GpuWorld {
    opaque: Pipeline,
    opaque_plain: Pipeline,
    translucent: Pipeline,
    /// Draw the world grid (`r_grid`).
    pub grid: bool,
    bindings: Bindings,
    /// The static opaque indices, nearest first, rewritten every frame.
    sorted: Bindings,
    order: Vec<(f32, u32)>,
    scratch: Vec<u32>,
    mesh: WorldMesh,
}

/// Where the camera is, for one frame.
#[derive(Debug, Clone, Copy)]
pub struct Eye {
    /// The view-projection matrix, column-major.
    pub view_proj: [f32; 16],
    /// The eye's position (for fog).
    pub position: [f32; 3],
}

impl GpuWorld {
    /// Uploads `mesh` and builds the pipelines.
    pub fn new(mesh: WorldMesh) -> Result<Self, GpuError> {
        let gl = unsafe { macroquad::window::get_internal_gl() };
        let ctx = gl.quad_context;
        let shader = ctx
            .new_shader(ShaderSource::Glsl { vertex: VERTEX, fragment: FRAGMENT }, meta())
            .map_err(|e| GpuError(format!("{e:?}")))?;
        let plain = ctx
            .new_shader(ShaderSource::Glsl { vertex: VERTEX, fragment: FRAGMENT_PLAIN }, meta())
            .map_err(|e| GpuError(format!("{e:?}")))?;
        let attributes = [
            VertexAttribute::new("pos", VertexFormat::Float3),
            VertexAttribute::new("normal", VertexFormat::Float3),
            VertexAttribute::new("colour", VertexFormat::Float4),
        ];
        let solid = PipelineParams {
            cull_face: CullFace::Back,
            depth_test: Comparison::LessOrEqual,
            depth_write: true,
            ..PipelineParams::default()
        };
        let blend = BlendState::new(Equation::Add, BlendFactor::Value(BlendValue::SourceAlpha), BlendFactor::OneMinusValue(BlendValue::SourceAlpha));
        let see_through = PipelineParams { depth_write: false, color_blend: Some(blend), ..solid };
        let opaque = ctx.new_pipeline(&[BufferLayout::default()], &attributes, shader, solid);
        let opaque_plain = ctx.new_pipeline(&[BufferLayout::default()], &attributes, plain, solid);
        let translucent = ctx.new_pipeline(&[BufferLayout::default()], &attributes, shader, see_through);
        // An empty buffer is not allowed: a map with nothing to draw gets one degenerate triangle.
        let (vertices, indices) = if mesh.indices.is_empty() {
            (vec![super::world_mesh::Vertex { pos: [0.0; 3], normal: [0.0; 3], colour: [0.0; 4] }], vec![0u32, 0, 0])
        } else {
            (mesh.vertices.clone(), mesh.indices.clone())
        };
        let vertex_buffer = ctx.new_buffer(BufferType::VertexBuffer, BufferUsage::Immutable, BufferSource::slice(&vertices));
        let index_buffer = ctx.new_buffer(BufferType::IndexBuffer, BufferUsage::Immutable, BufferSource::slice(&indices));
        let bindings = Bindings { vertex_buffers: vec![vertex_buffer], index_buffer, images: Vec::new() };
        let sorted_len = (mesh.opaque.end - mesh.opaque.start).max(3) as usize;
        let sorted_indices = ctx.new_buffer(BufferType::IndexBuffer, BufferUsage::Stream, BufferSource::empty::<u32>(sorted_len));
        let sorted = Bindings { vertex_buffers: vec![vertex_buffer], index_buffer: sorted_indices, images: Vec::new() };
        Ok(Self { opaque, opaque_plain, translucent, grid: false, bindings, sorted, order: Vec::new(), scratch: Vec::new(), mesh })
    }

    /// Clears the screen to `colour` and the depth and stencil buffers.
    ///
    /// Depth and stencil together: a software renderer clears a packed
    /// depth-stencil buffer with plain stores when both are cleared, but
    /// reads every pixel back to keep the stencil when only depth is (as
    /// macroquad's `clear_background` does).
    pub fn clear(colour: [f32; 3]) {
        let mut gl = unsafe { macroquad::window::get_internal_gl() };
        gl.flush();
        let ctx = gl.quad_context;
        let [r, g, b] = colour;
        ctx.begin_default_pass(PassAction::Clear { color: Some((r, g, b, 1.0)), depth: Some(1.0), stencil: Some(0) });
        ctx.end_render_pass();
    }

    /// The mesh being drawn.
    pub fn mesh(&self) -> &WorldMesh {
        &self.mesh
    }

    /// Draws the static world and every mover; `mover_offset(entity)` says
    /// where a mover is (`None`: at rest).
    pub fn draw_opaque(&mut self, eye: Eye, mover_offset: impl Fn(quarry_map::EntityId) -> Option<[f32; 3]>) {
        let mut gl = unsafe { macroquad::window::get_internal_gl() };
        gl.flush();
        let ctx = gl.quad_context;
        ctx.apply_pipeline(if self.grid { &self.opaque } else { &self.opaque_plain });
        ctx.begin_default_pass(PassAction::Nothing);
        self.mesh.opaque_near_first(glam::Vec3::from(eye.position), &mut self.order, &mut self.scratch);
        if !self.scratch.is_empty() {
            ctx.buffer_update(self.sorted.index_buffer, BufferSource::slice(&self.scratch));
            ctx.apply_bindings(&self.sorted);
            ctx.apply_uniforms(UniformsSource::table(&uniforms(eye, [0.0; 3])));
            ctx.draw(0, self.scratch.len() as i32, 1);
        }
        ctx.apply_bindings(&self.bindings);
        for m in &self.mesh.movers {
            if m.indices.is_empty() {
                continue;
            }
            ctx.apply_uniforms(UniformsSource::table(&uniforms(eye, mover_offset(m.entity).unwrap_or([0.0; 3]))));
            ctx.draw(m.indices.start as i32, (m.indices.end - m.indices.start) as i32, 1);
        }
        ctx.end_render_pass();
    }

    /// Draws the liquids, after everything opaque.
    pub fn draw_translucent(&self, eye: Eye) {
        let range = &self.mesh.translucent;
        if range.is_empty() {
            return;
        }
        let mut gl = unsafe { macroquad::window::get_internal_gl() };
        gl.flush();
        let ctx = gl.quad_context;
        ctx.apply_pipeline(&self.translucent);
        ctx.begin_default_pass(PassAction::Nothing);
        ctx.apply_bindings(&self.bindings);
        ctx.apply_uniforms(UniformsSource::table(&uniforms(eye, [0.0; 3])));
        ctx.draw(range.start as i32, (range.end - range.start) as i32, 1);
        ctx.end_render_pass();
    }
}

fn uniforms(eye: Eye, offset: [f32; 3]) -> Uniforms {
    Uniforms { view_proj: eye.view_proj, offset, eye: eye.position, fog_colour: SKY_COLOUR, fog_range: [FOG_START, FOG_END] }
}
