"""Grey impulse noise (pixels moved to any grey, not only black or white) gets a median."""

import io

import numpy as np
from PIL import Image

from evals.documents import render_page, to_png
from scan import preprocess


def _page() -> np.ndarray:
    return np.array(Image.open(io.BytesIO(to_png(render_page(person=0)))).convert("L"))


def test_grey_impulses_on_the_paper_get_a_median_and_a_clean_page_does_not():
    page = _page()
    rng = np.random.default_rng(0)
    noisy = page.astype(int)
    spots = rng.random(page.shape) < 1 / 12
    noisy[spots] += rng.integers(-100, 101, size=int(spots.sum()))
    noisy = np.clip(noisy, 0, 255).astype(np.uint8)
    clean, grey = preprocess.estimate_quality(page), preprocess.estimate_quality(noisy)
    assert clean.outliers < preprocess.RANDOM_IMPULSES < grey.outliers
    assert grey.impulse < preprocess.IMPULSE_NOISE  # not pure black and white: unseen before
    assert preprocess.choose_steps(grey)[0] == "median"
    assert "median" not in preprocess.choose_steps(clean)


def test_grain_still_goes_to_despeckle_before_the_grey_impulse_rule():
    page = _page().astype(float)
    grainy = np.clip(page + np.random.default_rng(1).normal(0, 28, page.shape), 0, 255)
    quality = preprocess.estimate_quality(grainy.astype(np.uint8))
    assert quality.noise > preprocess.GRAINY
    assert preprocess.choose_steps(quality)[:2] == ("blur", "despeckle")
