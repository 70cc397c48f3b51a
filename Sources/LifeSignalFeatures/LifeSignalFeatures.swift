/// Every feature of the LifeSignal app as a reducer.
