// TimelapseStage: the `timelapse` collection stage.
