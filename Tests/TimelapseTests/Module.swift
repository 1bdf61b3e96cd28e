// Tests of the timelapse stage.
