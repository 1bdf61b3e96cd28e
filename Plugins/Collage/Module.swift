// CollageStage: the `collage` collection stage.
