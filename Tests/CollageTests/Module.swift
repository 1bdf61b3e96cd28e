// Tests of the collage stage.
