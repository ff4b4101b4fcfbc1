// SPDX-License-Identifier: Apache-2.0
#include "mesh_load.h"

#include <assimp/Importer.hpp>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <stdexcept>

namespace pineda {

namespace {

std::array<float, 3> color3(const aiMaterial* m, const char* key, unsigned type, unsigned idx, std::array<float, 3> dflt) {
  aiColor3D c;
  if (m->Get(key, type, idx, c) == AI_SUCCESS) return {c.r, c.g, c.b};
  return dflt;
}

}  // namespace

LoadedMesh load_mesh(const std::string& path) {
  Assimp::Importer imp;
  // Points and lines are dropped; node transforms are baked into the vertices (one list).
  imp.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* sc = imp.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                             aiProcess_GenSmoothNormals | aiProcess_PreTransformVertices |
                                             aiProcess_SortByPType | aiProcess_FindDegenerates);
  if (!sc || !sc->mRootNode) throw std::runtime_error("cannot read " + path + ": " + imp.GetErrorString());
  LoadedMesh out;
  for (unsigned i = 0; i < sc->mNumMaterials; ++i) {
    const aiMaterial* m = sc->mMaterials[i];
    Material mat;
    mat.ambient = color3(m, AI_MATKEY_COLOR_AMBIENT, mat.ambient);
    mat.diffuse = color3(m, AI_MATKEY_COLOR_DIFFUSE, mat.diffuse);
    mat.specular = color3(m, AI_MATKEY_COLOR_SPECULAR, mat.specular);
    mat.emissive = color3(m, AI_MATKEY_COLOR_EMISSIVE, mat.emissive);
    float s = 0;
    if (m->Get(AI_MATKEY_SHININESS, s) == AI_SUCCESS) mat.shininess = s;
    aiString tex;
    if (m->GetTexture(aiTextureType_DIFFUSE, 0, &tex) == AI_SUCCESS) mat.diffuse_texture = tex.C_Str();
    out.materials.push_back(mat);
  }
  if (out.materials.empty()) out.materials.emplace_back();
  for (unsigned mi = 0; mi < sc->mNumMeshes; ++mi) {
    const aiMesh* m = sc->mMeshes[mi];
    if (!(m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    const uint32_t base = static_cast<uint32_t>(out.pos.size());
    const bool uv = m->HasTextureCoords(0), col = m->HasVertexColors(0);
    out.has_uv = out.has_uv || uv;
    for (unsigned v = 0; v < m->mNumVertices; ++v) {
      const aiVector3D& p = m->mVertices[v];
      out.pos.push_back({p.x, p.y, p.z});
      const aiVector3D n = m->HasNormals() ? m->mNormals[v] : aiVector3D(0, 0, 0);
      out.normal.push_back({n.x, n.y, n.z});
      out.uv.push_back(uv ? std::array<float, 2>{m->mTextureCoords[0][v].x, m->mTextureCoords[0][v].y}
                          : std::array<float, 2>{0, 0});
      out.color.push_back(col ? std::array<float, 4>{m->mColors[0][v].r, m->mColors[0][v].g, m->mColors[0][v].b,
                                                     m->mColors[0][v].a}
                              : std::array<float, 4>{1, 1, 1, 1});
      out.material.push_back(m->mMaterialIndex < out.materials.size() ? m->mMaterialIndex : 0);
    }
    for (unsigned f = 0; f < m->mNumFaces; ++f) {
      const aiFace& face = m->mFaces[f];
      if (face.mNumIndices != 3) continue;
      for (int k = 0; k < 3; ++k) out.idx.push_back(base + face.mIndices[k]);
    }
  }
  if (out.idx.empty()) throw std::runtime_error(path + ": no triangles in the file");
  return out;
}

}  // namespace pineda
