"""Read ordinary pip dice in a tray image: where each die is, its colour group and its face.

Knows no game. The tray floor is dark felt (docs/table-kit.md): a die is a blob far from the
felt's colour; its silhouette is squared up (minimum-area rectangle) and the pips are read in
that square. A face counts only when the pips sit where a d6 puts them for that count, so a
cocked die, two dice seen as one or a pip lost in glare are reported unreadable (``face``
None) rather than guessed: a wrong face is worse than none. docs/camera.md says why.

A package of its stages (issue 64), each with its constants; this module re-exports every
name so callers keep one import path. Change a constant in its stage's module
(``hardware.camera.dice_faces.pips.MAX_PIP_ERROR``): setting it here changes nothing.
"""
from .blobs import (
    LIKE_SIZE as LIKE_SIZE,
)
from .blobs import (
    _Blob as _Blob,
)
from .blobs import (
    _blobs as _blobs,
)
from .blobs import (
    _good_shape as _good_shape,
)
from .blobs import (
    _grown as _grown,
)
from .blobs import (  # noqa: F401
    _halves as _halves,
)
from .blobs import (
    _solid as _solid,
)
from .blobs import (
    _split as _split,
)
from .blobs import (
    _thick as _thick,
)
from .blobs import (
    _trimmed as _trimmed,
)
from .blobs import (
    _typical as _typical,
)
from .clusters import (
    _ENDS as _ENDS,
)
from .clusters import (
    _SIDES as _SIDES,
)
from .clusters import (
    BODY_APART as BODY_APART,
)
from .clusters import (
    BODY_LARGEST as BODY_LARGEST,
)
from .clusters import (
    BODY_ONE_COLOUR as BODY_ONE_COLOUR,
)
from .clusters import (
    FOUR_SQUARE as FOUR_SQUARE,
)
from .clusters import (
    ONE_ALONE as ONE_ALONE,
)
from .clusters import (
    PITCH as PITCH,
)
from .clusters import (
    PITCH_READ as PITCH_READ,
)
from .clusters import (
    _body_square as _body_square,
)
from .clusters import (
    _centred as _centred,
)
from .clusters import (
    _die_sized as _die_sized,
)
from .clusters import (
    _local_pips as _local_pips,
)
from .clusters import (
    _one_body as _one_body,
)
from .clusters import (
    _ones as _ones,
)
from .clusters import (
    _part as _part,
)
from .clusters import (
    _parted_runs as _parted_runs,
)
from .clusters import (  # noqa: F401
    _pip_clusters as _pip_clusters,
)
from .clusters import (
    _pitch_fits as _pitch_fits,
)
from .clusters import (
    _reach as _reach,
)
from .clusters import (
    _rows_of_a_six as _rows_of_a_six,
)
from .clusters import (
    _side_of_more as _side_of_more,
)
from .clusters import (
    _twos as _twos,
)
from .colour import (  # noqa: F401
    _HUES as _HUES,
)
from .colour import (
    _RING_AT as _RING_AT,
)
from .colour import (
    CAST as CAST,
)
from .colour import (
    _colour_group as _colour_group,
)
from .colour import (
    _hsv as _hsv,
)
from .colour import (
    _hsv_of as _hsv_of,
)
from .colour import (
    _surroundings as _surroundings,
)
from .colour import (
    colour_name as colour_name,
)
from .common import (
    _CROSS as _CROSS,
)
from .common import (
    _INNER as _INNER,
)
from .common import (
    _INNER_COUNT as _INNER_COUNT,
)
from .common import (
    _SCRATCH as _SCRATCH,
)
from .common import (
    _SQUARE as _SQUARE,
)
from .common import (
    _SUM as _SUM,
)
from .common import (
    _XX as _XX,
)
from .common import (
    _YY as _YY,
)
from .common import (
    APART as APART,
)
from .common import (  # noqa: F401
    CANON as CANON,
)
from .common import (
    EDGE_BLUR as EDGE_BLUR,
)
from .common import (
    ERODE as ERODE,
)
from .common import (
    PATCH as PATCH,
)
from .common import (
    DieReading as DieReading,
)
from .common import (
    TrayReading as TrayReading,
)
from .common import (
    _channel_sum as _channel_sum,
)
from .common import (
    _components as _components,
)
from .common import (
    _erode as _erode,
)
from .common import (
    _floats as _floats,
)
from .common import (
    _fresh as _fresh,
)
from .common import (
    _median as _median,
)
from .common import (
    _median_colour as _median_colour,
)
from .common import (
    _median_of as _median_of,
)
from .common import (
    _median_rows as _median_rows,
)
from .common import (
    _medians as _medians,
)
from .common import (
    _Once as _Once,
)
from .common import (
    _scratch as _scratch,
)
from .common import (
    _square_buffer as _square_buffer,
)
from .common import (
    _square_components as _square_components,
)
from .common import (
    release_buffers as release_buffers,
)
from .floor import (
    BAND as BAND,
)
from .floor import (
    DARKER as DARKER,
)
from .floor import (
    FAINT_LEAST as FAINT_LEAST,
)
from .floor import (
    FAINT_SHARE as FAINT_SHARE,
)
from .floor import (
    LIGHTER as LIGHTER,
)
from .floor import (
    MIN_FILL as MIN_FILL,
)
from .floor import (
    TINTED as TINTED,
)
from .floor import (  # noqa: F401
    WINDOW as WINDOW,
)
from .floor import (
    _band_masks as _band_masks,
)
from .floor import (
    _fill_pips as _fill_pips,
)
from .floor import (
    _fill_squares as _fill_squares,
)
from .floor import (
    _hull_fill as _hull_fill,
)
from .floor import (
    _open as _open,
)
from .floor import (
    _pips_of as _pips_of,
)
from .floor import (
    _square_enough as _square_enough,
)
from .floor import (
    die_masks as die_masks,
)
from .floor import (
    floor_colour as floor_colour,
)
from .hand import (  # noqa: F401
    HAND_DISTANCE as HAND_DISTANCE,
)
from .hand import (
    HAND_SHARE as HAND_SHARE,
)
from .hand import (
    _hand as _hand,
)
from .pips import (
    _EDGE as _EDGE,
)
from .pips import (
    _GRID as _GRID,
)
from .pips import (
    _INSIDE as _INSIDE,
)
from .pips import (
    _LARGEST_PIP as _LARGEST_PIP,
)
from .pips import (
    _OUTER as _OUTER,
)
from .pips import (
    _PLACES_XY as _PLACES_XY,
)
from .pips import (
    _RING as _RING,
)
from .pips import (
    _RING_AT_FLAT as _RING_AT_FLAT,
)
from .pips import (
    _RING_COUNT as _RING_COUNT,
)
from .pips import (
    _SCALES_COLUMN as _SCALES_COLUMN,
)
from .pips import (
    _SCALES_PX as _SCALES_PX,
)
from .pips import (
    _SMALLEST_PIP as _SMALLEST_PIP,
)
from .pips import (
    _STACKED as _STACKED,
)
from .pips import (
    _TARGETS as _TARGETS,
)
from .pips import (
    _WITHIN as _WITHIN,
)
from .pips import (
    LAYOUTS as LAYOUTS,
)
from .pips import (
    MARKED as MARKED,
)
from .pips import (
    MAX_PIP_ERROR as MAX_PIP_ERROR,
)
from .pips import (
    MIDDLE_OFF as MIDDLE_OFF,
)
from .pips import (  # noqa: F401
    PIP_OFFSET as PIP_OFFSET,
)
from .pips import (
    SCALES as SCALES,
)
from .pips import (
    SHRINK as SHRINK,
)
from .pips import (
    _absent_elsewhere as _absent_elsewhere,
)
from .pips import (
    _body as _body,
)
from .pips import (
    _fit_layout as _fit_layout,
)
from .pips import (
    _layout_errors as _layout_errors,
)
from .pips import (
    _marked as _marked,
)
from .pips import (
    _match_layout as _match_layout,
)
from .pips import (
    _middle_between as _middle_between,
)
from .pips import (
    _more_pips_within as _more_pips_within,
)
from .pips import (
    _pips_face as _pips_face,
)
from .pips import (
    _pitch as _pitch,
)
from .pips import (
    _square_up as _square_up,
)
from .pips import (
    read_face as read_face,
)
from .squares import (
    LOCAL_PIP as LOCAL_PIP,
)
from .squares import (
    THIN_SIDE as THIN_SIDE,
)
from .squares import (
    TURNS as TURNS,
)
from .squares import (
    _agreed as _agreed,
)
from .squares import (
    _middle_of_more as _middle_of_more,
)
from .squares import (
    _pip_spots as _pip_spots,
)
from .squares import (
    _read_blob as _read_blob,
)
from .squares import (
    _read_mask as _read_mask,
)
from .squares import (
    _read_part as _read_part,
)
from .squares import (  # noqa: F401
    _read_square as _read_square,
)
from .squares import (
    _spots as _spots,
)
from .squares import (
    _spots_in as _spots_in,
)
from .squares import (
    _top_beside_a_side as _top_beside_a_side,
)
from .tray import (  # noqa: F401
    GUESSED_SIZES as GUESSED_SIZES,
)
from .tray import (
    _on_patches as _on_patches,
)
from .tray import (
    _read_floor as _read_floor,
)
from .tray import (
    lone_die as lone_die,
)
from .tray import (
    read_tray as read_tray,
)
