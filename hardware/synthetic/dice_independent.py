"""A second, independent renderer of dice trays: a yardstick from outside.

The dice reader was tuned on the project's own tray generator. This module shares no code,
constants or assumptions with that generator, so the reader's figures on these trays tell how
it does on photos it was never tuned on. It is modelled on how real dice and cameras look,
not on what the reader expects:

* a small 3D scene: each die is a cube (rounded edges) lying flat on the floor with a random
  yaw and a random one of the 24 cube orientations, so its side faces show the values a real
  die would show there (opposite faces sum to 7);
* a pinhole camera above the tray, tilted 0-20 degrees off vertical, so each top face is a
  skewed quadrilateral and dice away from the image centre show one or two side faces;
* a directional light: Lambertian faces, rounded edges whose normal bends towards the side,
  concave pips (their rim shades the side facing the light), a soft cast shadow, a glossy
  sheen on faces and edges turned towards the light's mirror direction, and the lamp's
  reflection on the top of whichever dice lie where the camera sees that reflection;
* floors drawn in world coordinates (felt, wood planks, cardboard lid, plain table), warped
  into the image by the camera, sometimes with a tray rim along the edges;
* camera effects at the end: auto exposure, white-balance cast, vignetting, light falloff,
  slight defocus, signal-dependent noise (fresh for every still) and JPEG.

Everything is drawn at 4x and reduced with area averaging. Shading is done on linear light
and gamma-encoded at the end.

    frames, truth = scene(seed)       # three BGR uint8 stills of one settled tray, the truth
    kind = plan(seed).kind            # "felt", "wood", "lid" or "table"
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from hardware.synthetic import frame_cache

KINDS = ("felt", "wood", "lid", "table")
SS = 4  # supersampling factor
DIE_MM = 16.0  # the usual d6 edge; the unit of the world is the millimetre

# sRGB 0-255 albedos of dice bodies (name -> colour). Pips are painted into the recesses.
DIE_COLOURS = {
    "white": [(240, 238, 232), (236, 226, 200)],  # white and ivory
    "black": [(32, 32, 34)],
    "red": [(200, 28, 36), (175, 20, 30)],
    "orange": [(242, 122, 24), (230, 100, 20)],
    "yellow": [(246, 208, 32), (240, 220, 60)],
    "green": [(32, 140, 62), (20, 110, 60)],
    "blue": [(30, 72, 192), (40, 100, 200)],
    "purple": [(112, 46, 152), (90, 40, 130)],
}
DIE_WEIGHTS = {"white": 3, "black": 1, "red": 2, "orange": 1, "yellow": 1, "green": 2,
               "blue": 2, "purple": 1}
BLACK_PIPS = {"white", "yellow", "orange"}  # light bodies get black pips, the others white

FELT = [(25, 80, 45), (20, 100, 50), (25, 40, 90), (30, 60, 150), (110, 25, 35),
        (160, 30, 35), (90, 90, 95), (45, 45, 50), (22, 22, 25), (70, 40, 100),
        (230, 200, 60), (220, 120, 40), (20, 120, 120), (110, 160, 210), (220, 120, 160),
        (190, 170, 130)]
WOOD = [((205, 165, 115), (170, 125, 80)), ((150, 95, 55), (112, 68, 38)),
        ((92, 56, 36), (58, 34, 22)), ((152, 142, 128), (118, 108, 98)),
        ((190, 120, 70), (150, 85, 45))]
LID = [(236, 233, 226), (192, 156, 112), (202, 202, 198), (222, 214, 196), (176, 196, 214)]
TABLE = [(152, 152, 152), (206, 190, 164), (226, 222, 214), (82, 82, 84), (180, 170, 160)]

# Pip centres on a unit face ([-1, 1] square, scaled by the pip offset), per value.
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
# A die's faces in its own frame: +z 1, -z 6, +x 2, -x 5, +y 3, -y 4 (opposites sum to 7).
BODY_FACES = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0),
              4: (0, -1, 0)}


def _rotations() -> list[np.ndarray]:
    """The 24 proper rotations of a cube: signed permutation matrices with determinant +1."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3))
            for row, (col, sign) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = sign
            if np.linalg.det(m) > 0:
                out.append(m)
    return out


ROTATIONS = _rotations()


@dataclass(frozen=True)
class TrueDie:
    """What a perfect reader would report: the top face's centre in image px, its mean
    projected edge length (px), the value on top and the body colour's name."""

    centre: tuple[float, float]
    side: float
    face: int
    colour: str


@dataclass
class Die:
    x: float
    y: float
    size: float  # edge, mm
    yaw: float
    rotation: int  # index into ROTATIONS
    colour: str
    body: tuple[int, int, int]  # sRGB
    pip: tuple[int, int, int]  # sRGB
    glint: tuple[float, float, float, float] | None  # the lamp's reflection: face x, y,
    # radius (in sides), strength

    def faces(self) -> dict[tuple[int, int, int], int]:
        """Value on each face, keyed by its outward direction in the die's yawed frame."""
        q = ROTATIONS[self.rotation]
        return {tuple(int(v) for v in q @ np.array(e)): value
                for value, e in BODY_FACES.items()}

    @property
    def top(self) -> int:
        return self.faces()[(0, 0, 1)]


@dataclass
class Camera:
    """Pinhole camera; ``rot`` maps world to camera axes (x right, y down, z forward)."""

    width: int
    height: int
    f: float
    rot: np.ndarray
    pos: np.ndarray

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> image px (N, 2), pixel centres at integers."""
        c = (np.asarray(pts, float) - self.pos) @ self.rot.T
        return self.f * c[:, :2] / c[:, 2:3] + [(self.width - 1) / 2, (self.height - 1) / 2]

    def to_plane(self, u: float, v: float, z: float) -> np.ndarray:
        """Where the ray through pixel (u, v) meets the horizontal plane at height z."""
        d = self.rot.T @ np.array([(u - (self.width - 1) / 2) / self.f,
                                   (v - (self.height - 1) / 2) / self.f, 1.0])
        t = (z - self.pos[2]) / d[2]
        return self.pos + t * d


@dataclass
class Plan:
    """Everything random about one tray, drawn from the seed before anything is rendered."""

    seed: int
    kind: str
    camera: Camera
    floor_rgb: tuple
    rim: dict[str, float]  # side -> world coordinate of the floor's edge
    light: np.ndarray  # unit vector towards the light
    ambient: float
    shadow: float  # strength of the cast shadow, 0-1
    softness: float  # shadow blur, in die sides
    bevel: float  # edge rounding radius, in sides
    pip_offset: float  # pip centre from face centre, in sides
    pip_radius: float  # in sides
    gloss: float = 0.0  # Blinn-Phong sheen strength
    shine: float = 40.0  # Blinn-Phong exponent
    lamp_mm: float = 4.0  # radius of the lamp's reflection on a top face
    glint: float = 1.0  # brightness of that reflection
    dice: list[Die] = field(default_factory=list)
    look: dict = field(default_factory=dict)  # camera effects


def _srgb_to_lin(c) -> np.ndarray:
    return (np.asarray(c, np.float32) / 255.0) ** 2.2


def _lab(rgb) -> np.ndarray:
    px = np.uint8([[list(rgb)[::-1]]])
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0].astype(float) * [100 / 255, 1, 1]


def _too_close(die_rgb, floor_rgb) -> bool:
    """A die nearly the floor's colour: a player could not tell it apart either; skip it."""
    return float(np.linalg.norm(_lab(die_rgb) - _lab(floor_rgb))) < 32


def _camera(rng: np.random.Generator, target_px: float) -> Camera:
    width, height = [(640, 480), (640, 480), (560, 420), (480, 360)][rng.integers(4)]
    fov = math.radians(rng.uniform(45, 65))
    f = (width / 2) / math.tan(fov / 2)
    tilt = math.radians(rng.uniform(0, 20))
    az = rng.uniform(0, 2 * math.pi)
    # looking straight down: image x = world x, image y = world -y, forward = world -z
    base = np.array([[1.0, 0, 0], [0, -1.0, 0], [0, 0, -1.0]])
    axis = np.array([math.cos(az), math.sin(az), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    tilt_m = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * k @ k
    rot = tilt_m @ base
    # height so a die at the middle of the view is about target_px across
    h = DIE_MM + f * DIE_MM * math.cos(tilt) / target_px
    return Camera(width, height, f, rot, np.array([0.0, 0.0, h]))


def _floor_colour(rng: np.random.Generator, kind: str):
    if kind == "felt":
        return FELT[rng.integers(len(FELT))]
    if kind == "wood":
        return WOOD[rng.integers(len(WOOD))]
    if kind == "lid":
        return LID[rng.integers(len(LID))]
    return TABLE[rng.integers(len(TABLE))]


def _mean_floor(kind: str, floor_rgb) -> tuple:
    if kind == "wood":
        return tuple((np.array(floor_rgb[0]) + floor_rgb[1]) / 2)
    return tuple(floor_rgb)


def _footprint(d: Die, grow: float = 0.0) -> np.ndarray:
    h = d.size / 2 + grow
    c, s = math.cos(d.yaw), math.sin(d.yaw)
    corners = [(-h, -h), (h, -h), (h, h), (-h, h)]
    return np.array([(d.x + c * a - s * b, d.y + s * a + c * b) for a, b in corners])


def _separated(a: np.ndarray, b: np.ndarray) -> bool:
    """Separating-axis test for two convex quadrilaterals."""
    for poly in (a, b):
        for i in range(4):
            e = poly[(i + 1) % 4] - poly[i]
            n = np.array([-e[1], e[0]])
            pa, pb = a @ n, b @ n
            if pa.max() <= pb.min() or pb.max() <= pa.min():
                return True
    return False


def _top_corners(d: Die) -> np.ndarray:
    return np.column_stack([_footprint(d), np.full(4, d.size)])


def projected_side(cam: Camera, d: Die) -> float:
    q = cam.project(_top_corners(d))
    return float(np.mean([np.linalg.norm(q[(i + 1) % 4] - q[i]) for i in range(4)]))


def plan(seed: int, **overrides) -> Plan:
    """Draw one tray from the seed. ``overrides`` (kind, floor_rgb, colours, glints, tilt0;
    die_px: the dice's least size across in px, each at most an eighth more; wb: the
    camera's white balance, gains on linear R, G, B, drawn 0.9-1.1 each) let tests pin parts
    of it; the rest stays as the seed says (every draw is made as without them)."""
    rng = np.random.default_rng([seed, 7331])
    kind = overrides.get("kind") or KINDS[seed % len(KINDS)]
    target = rng.uniform(31, 42)
    if overrides.get("die_px"):
        target = 1.06 * overrides["die_px"]
    cam = _camera(rng, target)
    if overrides.get("tilt0"):
        cam.rot = np.array([[1.0, 0, 0], [0, -1.0, 0], [0, 0, -1.0]])
    floor_rgb = overrides.get("floor_rgb") or _floor_colour(rng, kind)
    # a tray rim along some edges: the floor stops 4-9 % in from that image edge
    rim = {}
    if rng.random() < 0.35:
        w, h = cam.width, cam.height
        for side in ("left", "right", "top", "bottom"):
            if rng.random() < 0.6:
                frac = rng.uniform(0.04, 0.09)
                u, v = {"left": (frac * w, h / 2), "right": ((1 - frac) * w, h / 2),
                        "top": (w / 2, frac * h), "bottom": (w / 2, (1 - frac) * h)}[side]
                p = cam.to_plane(u, v, 0.0)
                rim[side] = float(p[0] if side in ("left", "right") else p[1])
    el = math.radians(rng.uniform(40, 88))
    az = rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    p = Plan(seed=seed, kind=kind, camera=cam, floor_rgb=floor_rgb, rim=rim, light=light,
             ambient=rng.uniform(0.3, 0.55), shadow=rng.uniform(0.3, 0.65),
             softness=rng.uniform(0.04, 0.15), bevel=rng.uniform(0.06, 0.14),
             pip_offset=rng.uniform(0.25, 0.30), pip_radius=0.0)
    p.pip_radius = rng.uniform(0.15, min(0.27, 0.82 * p.pip_offset)) / 2
    if overrides.get("glints", True):
        p.gloss, p.shine = rng.uniform(0.02, 0.12), rng.uniform(60, 200)
        p.lamp_mm, p.glint = rng.uniform(3.0, 14.0), rng.uniform(0.4, 1.6)
    p.look = {
        "wb": tuple(rng.uniform(0.9, 1.1, 3)),
        "exposure": rng.uniform(0.85, 1.15),
        "vignette": rng.uniform(0.08, 0.35),
        "falloff": (rng.uniform(0, 0.15), rng.uniform(0, 2 * math.pi)),
        "defocus": rng.uniform(0.3, 1.0),
        "noise": (rng.uniform(0.5, 4.0), rng.uniform(2.0, 12.0)),  # floor, per-level (sRGB²)
        "chroma": rng.uniform(0.2, 0.6),
        "jpeg": int(rng.integers(60, 93)),
    }
    if overrides.get("wb"):
        p.look["wb"] = tuple(overrides["wb"])
    _place_dice(rng, p, overrides)
    if overrides.get("glints", True):
        _glints(p)
    return p


def _glints(p: Plan) -> None:
    """The lamp mirrored in the (flat, glossy) top faces: the camera sees it at the point of
    the top plane where the light's reflection heads for the lens. A die whose top covers that
    point shows a bright spot there; the others show none."""
    cam, light = p.camera, p.light
    for d in p.dice:
        t = (cam.pos[2] - d.size) / light[2]
        mirror = cam.pos + t * np.array([light[0], light[1], -light[2]])
        rel = mirror[:2] - [d.x, d.y]
        c, s = math.cos(d.yaw), math.sin(d.yaw)
        fx, fy = (rel @ [c, s]) / d.size, (rel @ [-s, c]) / d.size
        r = p.lamp_mm / d.size
        if max(abs(fx), abs(fy)) < 0.5 + 1.5 * r:
            d.glint = (float(fx), float(fy), r, p.glint)


def _place_dice(rng: np.random.Generator, p: Plan, overrides: dict) -> None:
    cam = p.camera
    want = int(rng.integers(6, 11))
    names = list(DIE_WEIGHTS)
    weights = np.array([DIE_WEIGHTS[n] for n in names], float)
    allowed = overrides.get("colours")
    one_colour = rng.random() < 0.2  # a set of one colour
    mixed_sizes = rng.random() < 0.25  # dice from two sets
    floor_mean = _mean_floor(p.kind, p.floor_rgb)
    set_colour = None
    for _ in range(3000):
        if len(p.dice) >= want:
            break
        if allowed:
            name = allowed[rng.integers(len(allowed))]
        elif one_colour and set_colour:
            name = set_colour
        else:
            name = names[rng.choice(len(names), p=weights / weights.sum())]
        body = DIE_COLOURS[name][rng.integers(len(DIE_COLOURS[name]))]
        if _too_close(body, floor_mean):
            continue
        size = DIE_MM * (rng.uniform(0.88, 1.12) if mixed_sizes else 1.0)
        u = rng.uniform(0.08, 0.92) * cam.width
        v = rng.uniform(0.08, 0.92) * cam.height
        c = cam.to_plane(u, v, size)
        d = Die(x=float(c[0]), y=float(c[1]), size=size, yaw=rng.uniform(0, math.pi / 2),
                rotation=int(rng.integers(24)), colour=name, body=body,
                pip=(22, 22, 24) if name in BLACK_PIPS else (242, 242, 236), glint=None)
        low, high = (28, 46) if not overrides.get("die_px") else (
            overrides["die_px"], 1.125 * overrides["die_px"])
        if not low <= projected_side(cam, d) <= high:
            continue
        # the whole die (side faces too) inside the image, and on the floor inside any rim
        body_px = cam.project(np.vstack([_top_corners(d),
                                         np.column_stack([_footprint(d), np.zeros(4)])]))
        if (body_px.min() < 3 or body_px[:, 0].max() > cam.width - 4
                or body_px[:, 1].max() > cam.height - 4):
            continue
        fp = _footprint(d, 0.15 * d.size)
        if (("left" in p.rim and fp[:, 0].min() < p.rim["left"])
                or ("right" in p.rim and fp[:, 0].max() > p.rim["right"])
                or ("bottom" in p.rim and fp[:, 1].min() < p.rim["bottom"])
                or ("top" in p.rim and fp[:, 1].max() > p.rim["top"])):
            continue
        # most dice lie apart; about one in ten may touch its neighbour
        gap = 0.0 if rng.random() < 0.1 else 0.08 * d.size
        if all(_separated(_footprint(d, gap / 2), _footprint(o, gap / 2))
               and math.hypot(d.x - o.x, d.y - o.y) >= 1.1 * max(d.size, o.size)
               for o in p.dice):
            p.dice.append(d)
            set_colour = set_colour or name


# ---------------------------------------------------------------- floors (world textures)

def _noise(rng, shape, sigma) -> np.ndarray:
    n = rng.standard_normal(shape).astype(np.float32)
    if sigma > 0:
        n = cv2.GaussianBlur(n, (0, 0), sigma)
    return n / (n.std() + 1e-6)


def _floor_texture(rng, kind, floor_rgb, shape, mm_per_px) -> np.ndarray:
    """Floor albedo (linear RGB) on a world-aligned grid: x along columns, y along rows."""
    h, w = shape
    px = 1.0 / mm_per_px  # texture px per mm
    if kind == "felt":
        base = _srgb_to_lin(floor_rgb)
        mottle = _noise(rng, shape, 10 * px) * 0.05
        fibres = np.zeros(shape, np.float32)
        for _ in range(4):  # short fibres in random directions
            k = np.zeros((9, 9), np.float32)
            ang = rng.uniform(0, math.pi)
            cv2.line(k, (int(4 - 4 * math.cos(ang)), int(4 - 4 * math.sin(ang))),
                     (int(4 + 4 * math.cos(ang)), int(4 + 4 * math.sin(ang))), 1.0, 1)
            fibres += cv2.filter2D(_noise(rng, shape, 0), -1, k / k.sum())
        fibres = fibres / (fibres.std() + 1e-6) * 0.07
        tex = base * (1 + mottle + fibres)[..., None]
    elif kind == "wood":
        light, dark = _srgb_to_lin(floor_rgb[0]), _srgb_to_lin(floor_rgb[1])
        ang = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) * mm_per_px
        along = xx * math.cos(ang) + yy * math.sin(ang)
        across = -xx * math.sin(ang) + yy * math.cos(ang)
        plank_w = rng.uniform(60, 140)
        plank = np.floor(across / plank_w)
        ring = np.zeros(shape, np.float32)
        warp = _noise(rng, shape, 35 * px) * rng.uniform(1, 3.5)
        for k in np.unique(plank):  # each plank cut from its own log
            m = plank == k
            axis = rng.uniform(-2, 3) * plank_w
            depth = rng.uniform(20, 120)
            period = rng.uniform(3, 8)
            r = np.sqrt(((across[m] - k * plank_w) - axis) ** 2 * rng.uniform(0.6, 1.0)
                        + depth ** 2 + (along[m] * rng.uniform(0, 0.05)) ** 2)
            ring[m] = 0.5 + 0.5 * np.sin(2 * math.pi * (r + warp[m]) / period)
        ring = ring ** rng.uniform(1.5, 3.0)
        # the wood's fibres: noise stretched along x, then turned to run along the planks
        big = int(math.hypot(h, w)) + 2
        fibres = rng.standard_normal((big, big)).astype(np.float32)
        fibres = cv2.GaussianBlur(fibres, (0, 0), sigmaX=max(12 * px, 0.5),
                                  sigmaY=max(0.4 * px, 0.3))
        turn = cv2.getRotationMatrix2D((big / 2, big / 2), -math.degrees(ang), 1.0)
        turn[:, 2] += [w / 2 - big / 2, h / 2 - big / 2]
        fibres = cv2.warpAffine(fibres, turn, (w, h), flags=cv2.INTER_LINEAR)
        fibres = fibres / (fibres.std() + 1e-6)
        gm = (ring * 0.7 + 0.12 * fibres).clip(0, 1)
        tex = light * (1 - gm[..., None]) + dark * gm[..., None]
        seam = np.abs(((across / plank_w) % 1.0) * plank_w) < 0.6
        tex[seam] *= 0.45
        tex *= (1 + 0.06 * _noise(rng, shape, 40 * px))[..., None]
    elif kind == "lid":
        base = _srgb_to_lin(floor_rgb)
        paper = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 0.7)
        paper = paper / (paper.std() + 1e-6) * 0.025
        tex = base * (1 + paper + _noise(rng, shape, 15 * px) * 0.02)[..., None]
        if rng.random() < 0.6:  # a faint printed pattern
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) * mm_per_px
            pat = rng.integers(3)
            if pat == 0:
                p = (np.sin((xx + yy) * 2 * math.pi / rng.uniform(8, 20)) > 0.6)
            elif pat == 1:
                step = rng.uniform(10, 25)
                p = ((xx % step) < 0.8) | ((yy % step) < 0.8)
            else:
                step = rng.uniform(12, 30)
                p = np.hypot((xx % step) - step / 2, (yy % step) - step / 2) < step * 0.15
            ink = _srgb_to_lin([rng.integers(40, 200) for _ in range(3)])
            a = rng.uniform(0.04, 0.12)
            tex = tex * (1 - a * p[..., None]) + ink * (a * p[..., None])
    else:  # plain table: laminate or painted board
        base = _srgb_to_lin(floor_rgb)
        speck = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 0.8)
        speck = speck / (speck.std() + 1e-6) * 0.02
        tex = base * (1 + speck + _noise(rng, shape, 30 * px) * 0.03)[..., None]
    return tex.astype(np.float32)


# ---------------------------------------------------------------- faces

def _face_patch(p: Plan, d: Die, value: int, normal, u_w, v_w, n_px: int, rng) -> tuple:
    """One face of a die as a square patch: premultiplied linear RGB and alpha.

    The face is a rounded square: within ``bevel`` of the border its normal bends towards the
    neighbouring face, so edges catch or lose the light like a real rounded die. Pips are
    spherical dimples painted in the pip colour; a dimple's normal tilts to its middle, so the
    part nearest the light is darker (the crescent of a real pip)."""
    g = (np.arange(n_px, dtype=np.float32) + 0.5) / n_px - 0.5
    px, py = np.meshgrid(g, g)
    b = p.bevel
    qx, qy = np.abs(px) - (0.5 - b), np.abs(py) - (0.5 - b)
    ox, oy = np.maximum(qx, 0), np.maximum(qy, 0)
    out = np.hypot(ox, oy)
    alpha = np.clip((b - out) * n_px + 0.5, 0, 1)
    sin_a = np.clip(out / b, 0, 1)
    cos_a = np.sqrt(1 - sin_a ** 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        dx = np.where(out > 0, ox * np.sign(px) / out, 0)
        dy = np.where(out > 0, oy * np.sign(py) / out, 0)
    nrm = (cos_a[..., None] * normal + sin_a[..., None]
           * (dx[..., None] * u_w + dy[..., None] * v_w))
    diffuse = 1 - p.ambient
    shade = p.ambient + diffuse * np.clip(nrm @ p.light, 0, None)
    body = _srgb_to_lin(d.body)
    colour = body * shade[..., None]
    # pips
    pip_col = _srgb_to_lin(d.pip)
    turn = int(rng.integers(2))
    r = p.pip_radius
    pips = np.zeros_like(px)
    for cx, cy in PIPS[value]:
        if turn:
            cx, cy = -cy, cx
        cx, cy = cx * p.pip_offset, cy * p.pip_offset
        ddx, ddy = px - cx, py - cy
        dist = np.hypot(ddx, ddy)
        inside = np.clip((r - dist) * n_px + 0.5, 0, 1)
        if not inside.any():
            continue
        t = np.clip(dist / r, 0, 1)
        slope = 0.8 * t  # sine of the dimple wall's tilt
        with np.errstate(invalid="ignore", divide="ignore"):
            ux = np.where(dist > 0, ddx / dist, 0)
            uy = np.where(dist > 0, ddy / dist, 0)
        pn = (np.sqrt(1 - slope ** 2)[..., None] * normal
              - slope[..., None] * (ux[..., None] * u_w + uy[..., None] * v_w))
        lit = np.clip(pn @ p.light, 0, None)
        # the rim shadows the wall on the light's side at low light
        rim_shadow = np.clip((ux * (u_w @ p.light) + uy * (v_w @ p.light)) * t, 0, 1)
        pshade = (p.ambient * 0.8 + diffuse * lit) * (1 - 0.35 * rim_shadow)
        pip = pip_col * pshade[..., None]
        colour = colour * (1 - inside[..., None]) + pip * inside[..., None]
        pips = np.maximum(pips, inside)
    if p.gloss > 0:  # glossy plastic: a Blinn-Phong sheen, strongest on the rounded edges
        view = p.camera.pos - [d.x, d.y, d.size / 2]
        half = p.light + view / np.linalg.norm(view)
        half /= np.linalg.norm(half)
        colour = colour + (p.gloss * np.clip(nrm @ half, 0, 1) ** p.shine)[..., None]
    if d.glint is not None and normal[2] > 0.9:
        gx, gy, gr, gs = d.glint
        spot = np.exp(-(((px - gx) / gr) ** 2 + ((py - gy) / gr) ** 2))
        # the dimples' walls turn most of the reflection away: pips stay darker inside it
        colour = colour + (gs * spot * (1 - 0.85 * pips))[..., None]
    return colour * alpha[..., None], alpha


def _blit(canvas, patch, alpha, corners4) -> None:
    """Warp a square patch onto the 4x canvas where its corners (4, 2) land; alpha over."""
    n = patch.shape[0]
    x0, y0 = np.floor(corners4.min(0)).astype(int) - 2
    x1, y1 = np.ceil(corners4.max(0)).astype(int) + 2
    hh, ww = canvas.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, ww), min(y1, hh)
    if x1 <= x0 or y1 <= y0:
        return
    src = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
    # patch corners are pixel edges; canvas pixel centres are integers
    m = cv2.getPerspectiveTransform(src, np.float32(corners4 - [x0 - 0.5, y0 - 0.5]))
    size = (x1 - x0, y1 - y0)
    col = cv2.warpPerspective(patch, m, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR)
    roi = canvas[y0:y1, x0:x1]
    roi *= (1 - a[..., None])
    roi += col


# ---------------------------------------------------------------- rendering

def _to4(pts: np.ndarray) -> np.ndarray:
    """1x image px -> 4x canvas px (both with pixel centres at integers)."""
    return pts * SS + (SS - 1) / 2


@frame_cache.cached
def render(p: Plan, clean: bool = False) -> tuple[list[np.ndarray], list[TrueDie]]:
    """Render the plan: three BGR uint8 stills (same scene, fresh noise each) and the truth.
    ``clean``: no camera effects (no blur, noise, vignette, colour cast or JPEG)."""
    rng = np.random.default_rng([p.seed, 99])
    cam = p.camera
    w4, h4 = cam.width * SS, cam.height * SS
    # the floor: texture on a world grid covering the view, warped in by the camera
    corners = np.array([cam.to_plane(u, v, 0.0)[:2] for u, v in
                        [(-1, -1), (cam.width, -1), (cam.width, cam.height), (-1, cam.height)]])
    lo, hi = corners.min(0) - 5, corners.max(0) + 5
    mm_per_px = DIE_MM / (projected_side(cam, p.dice[0]) * 1.4) if p.dice else 0.3
    shape = (int((hi[1] - lo[1]) / mm_per_px) + 1, int((hi[0] - lo[0]) / mm_per_px) + 1)
    tex = _floor_texture(rng, p.kind, p.floor_rgb, shape, mm_per_px)
    if p.rim:
        _draw_rim(rng, p, tex, lo, mm_per_px)
    th, tw = shape
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    world = np.array([[lo[0], lo[1], 0], [lo[0] + tw * mm_per_px, lo[1], 0],
                      [lo[0] + tw * mm_per_px, lo[1] + th * mm_per_px, 0],
                      [lo[0], lo[1] + th * mm_per_px, 0]])
    dst = np.float32(_to4(cam.project(world)) + 0.5)
    m = cv2.getPerspectiveTransform(src, dst)
    floor = cv2.warpPerspective(tex, m, (w4, h4), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    light_floor = p.ambient + (1 - p.ambient) * p.light[2]
    canvas = floor * light_floor
    # cast shadows (hull of the footprint and the top's shadow) and contact darkening
    shadow = np.zeros((h4, w4), np.float32)
    contact = np.zeros((h4, w4), np.float32)
    side4 = SS * float(np.mean([projected_side(cam, d) for d in p.dice]))
    for d in p.dice:
        fp = np.column_stack([_footprint(d), np.zeros(4)])
        top = _top_corners(d)
        cast = top - np.outer(top[:, 2] / p.light[2], p.light)
        q = _to4(cam.project(np.vstack([fp, cast])))
        hull = cv2.convexHull(np.round(q * 4).astype(np.int32))
        cv2.fillConvexPoly(shadow, hull, 1.0, lineType=cv2.LINE_AA, shift=2)
        qf = np.round(_to4(cam.project(fp)) * 4).astype(np.int32)
        cv2.fillConvexPoly(contact, qf, 1.0, lineType=cv2.LINE_AA, shift=2)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, p.softness * side4))
    contact = cv2.GaussianBlur(contact, (0, 0), max(1.0, 0.06 * side4))
    # direct light only is blocked; ambient stays
    canvas *= (1 - np.clip(p.shadow * shadow + 0.3 * contact, 0, 0.9))[..., None]
    # dice, farthest from the camera first
    order = sorted(p.dice, key=lambda d: -math.hypot(d.x - cam.pos[0], d.y - cam.pos[1]))
    truth_of: dict[int, TrueDie] = {}
    n_px = 160
    for d in order:
        c, s = math.cos(d.yaw), math.sin(d.yaw)
        u_w, v_w, z = np.array([c, s, 0.0]), np.array([-s, c, 0.0]), np.array([0, 0, 1.0])
        centre_top = np.array([d.x, d.y, d.size])
        faces = d.faces()
        for key, n_w in (((1, 0, 0), u_w), ((-1, 0, 0), -u_w), ((0, 1, 0), v_w),
                         ((0, -1, 0), -v_w)):
            fc = centre_top - z * d.size / 2 + n_w * d.size / 2
            if n_w @ (cam.pos - fc) <= 0:
                continue  # faces away from the camera
            t_w = np.cross(z, n_w)  # horizontal axis of the side face
            pts = np.array([fc + d.size * (a * t_w + b * -z)
                            for a, b in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))])
            patch, alpha = _face_patch(p, d, faces[key], n_w, t_w, -z, n_px, rng)
            _blit(canvas, patch, alpha, _to4(cam.project(pts)))
        pts = np.array([centre_top + d.size * (a * u_w + b * v_w)
                        for a, b in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))])
        patch, alpha = _face_patch(p, d, faces[(0, 0, 1)], z, u_w, v_w, n_px, rng)
        _blit(canvas, patch, alpha, _to4(cam.project(pts)))
        ctr = cam.project(centre_top[None])[0]
        truth_of[id(d)] = TrueDie((float(ctr[0]), float(ctr[1])), projected_side(cam, d),
                                  d.top, d.colour)
    img = cv2.resize(canvas, (cam.width, cam.height), interpolation=cv2.INTER_AREA)
    truth = [truth_of[id(d)] for d in p.dice]
    if clean:
        out = _encode(np.clip(img, 0, 1))
        return [out.copy() for _ in range(3)], truth
    return [_camera_look(p, img, i) for i in range(3)], truth


def _draw_rim(rng, p: Plan, tex: np.ndarray, lo, mm_per_px) -> None:
    """Paint the tray's rim beyond the floor's edge, with a soft shadow band inside it."""
    th, tw = tex.shape[:2]
    xs = lo[0] + (np.arange(tw) + 0.5) * mm_per_px
    ys = lo[1] + (np.arange(th) + 0.5) * mm_per_px
    xx, yy = np.meshgrid(xs, ys)
    dist = np.full((th, tw), np.inf, np.float32)  # mm inside the floor from the nearest rim
    for side, edge in p.rim.items():
        dd = {"left": xx - edge, "right": edge - xx, "bottom": yy - edge,
              "top": edge - yy}[side]
        dist = np.minimum(dist, dd)
    rim_col = _srgb_to_lin([(60, 40, 28), (30, 30, 32), (150, 110, 70), (200, 200, 196)]
                           [rng.integers(4)])
    outside = dist < 0
    tex[outside] = rim_col * (1 + 0.04 * rng.standard_normal((int(outside.sum()), 1)))
    band = np.clip(1 - dist / rng.uniform(4, 12), 0, 1) * (~outside)
    tex *= (1 - 0.45 * band)[..., None]


def _encode(lin: np.ndarray) -> np.ndarray:
    srgb = np.clip(lin, 0, 1) ** (1 / 2.2)
    return np.round(srgb[..., ::-1] * 255).astype(np.uint8)


def _camera_look(p: Plan, lin: np.ndarray, frame: int) -> np.ndarray:
    """Auto exposure, colour cast, vignette, light falloff, defocus, noise, JPEG."""
    look = p.look
    cam = p.camera
    rng = np.random.default_rng([p.seed, 500 + frame])
    lum = float(lin.mean())
    gain = float(np.clip((0.2 / max(lum, 1e-4)) ** 0.55, 0.7, 2.6)) * look["exposure"]
    img = lin * gain * np.array(look["wb"], np.float32)
    yy, xx = np.mgrid[0:cam.height, 0:cam.width].astype(np.float32)
    r2 = ((xx - cam.width / 2) ** 2 + (yy - cam.height / 2) ** 2) / (
        (cam.width / 2) ** 2 + (cam.height / 2) ** 2)
    amount, ang = look["falloff"]
    ramp = ((xx / cam.width - 0.5) * math.cos(ang) + (yy / cam.height - 0.5) * math.sin(ang))
    img *= ((1 - look["vignette"] * r2) * (1 + 2 * amount * ramp))[..., None]
    img = cv2.GaussianBlur(img, (0, 0), look["defocus"])
    srgb = np.clip(img, 0, 1) ** (1 / 2.2) * 255
    floor_var, level_var = look["noise"]
    sd = np.sqrt(floor_var + level_var * srgb.mean(axis=2) / 255 * 2)
    luma = rng.standard_normal(sd.shape).astype(np.float32) * sd
    chroma = rng.standard_normal(srgb.shape).astype(np.float32) * sd[..., None] * look["chroma"]
    srgb = srgb + luma[..., None] + chroma
    bgr = np.clip(np.round(srgb[..., ::-1]), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, look["jpeg"]])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@frame_cache.cached
def scene(seed: int, **overrides) -> tuple[list[np.ndarray], list[TrueDie]]:
    """Three stills of one settled tray and the truth per die, all from the seed."""
    return render(plan(seed, **overrides))


__all__ = ["KINDS", "Plan", "TrueDie", "plan", "render", "scene"]
